import { parseMessage } from '@rondo/protocol';
import type { BodyMessage } from './edge.js';

/**
 * Reads a web request's body as UTF-8 and parses it, refusing more than `limit` bytes: a declared
 * Content-Length over the limit before any byte is read, an undeclared size while reading (the
 * rest of the stream is cancelled, never buffered).
 */
export async function readFetchMessage(request: Request, limit: number): Promise<BodyMessage> {
  const declared = Number(request.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > limit) {
    await request.body?.cancel().catch(() => undefined);
    return 'too-large';
  }
  // A declared length is one the runtime's HTTP parser holds the body to: read it in one go
  // (without touching `body`, which makes Node bridges build a stream around the request).
  if (Number.isFinite(declared)) return readWhole(request);
  if (!request.body) return parseMessage('');
  const reader = (request.body as ReadableStream<Uint8Array>).getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        await reader.cancel().catch(() => undefined);
        return 'too-large';
      }
      chunks.push(value);
    }
  } catch {
    return 'aborted';
  }
  return parseMessage(decode(chunks, size));
}

function decode(chunks: readonly Uint8Array[], size: number): string {
  const decoder = new TextDecoder();
  if (chunks.length === 1) return decoder.decode(chunks[0]);
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return decoder.decode(bytes);
}

async function readWhole(request: Request): Promise<BodyMessage> {
  try {
    return parseMessage(await request.text());
  } catch {
    return 'aborted';
  }
}
