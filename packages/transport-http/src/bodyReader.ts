import type { IncomingMessage } from 'node:http';
import { parseMessage, validateMessage, type ParseOutcome } from '@rondo/protocol';

/** The outcome of reading a request body under a size limit. */
export type BodyOutcome =
  { ok: true; text: string } | { ok: false; reason: 'too-large' | 'aborted' };

/**
 * Reads a request body as UTF-8, refusing more than `limit` bytes. A declared Content-Length over
 * the limit is refused before any byte is read; an undeclared size is counted while reading.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<BodyOutcome> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    discard(req);
    return Promise.resolve({ ok: false, reason: 'too-large' });
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) {
        cleanup();
        discard(req);
        resolve({ ok: false, reason: 'too-large' });
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => {
      cleanup();
      // A small body arrives in one chunk: decode it without copying it first.
      const body = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
      resolve({ ok: true, text: body.toString('utf8') });
    };
    const onAbort = (): void => {
      cleanup();
      resolve({ ok: false, reason: 'aborted' });
    };
    const cleanup = (): void => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onAbort);
      req.off('close', onAbort);
    };
    req.on('data', onData);
    req.once('end', onEnd);
    req.once('error', onAbort);
    req.once('close', onAbort);
  });
}

/** Lets the rest of a refused body flow away unbuffered so the response can still be read. */
function discard(req: IncomingMessage): void {
  req.on('data', () => undefined);
  req.on('error', () => undefined);
  req.resume();
}

/**
 * The body as a message: taken from a body parser that already ran (express), at once, or read
 * here. Not an async function: one promise per body rather than two.
 */
export function readMessage(
  req: IncomingMessage,
  limit: number,
): Promise<ParseOutcome | 'too-large' | 'aborted'> | ParseOutcome {
  const preParsed = (req as IncomingMessage & { body?: unknown }).body;
  if (preParsed !== undefined && req.readableEnded) {
    return typeof preParsed === 'string' ? parseMessage(preParsed) : validateMessage(preParsed);
  }
  return readBody(req, limit).then(messageOf);
}

function messageOf(body: BodyOutcome): ParseOutcome | 'too-large' | 'aborted' {
  return body.ok ? parseMessage(body.text) : body.reason;
}
