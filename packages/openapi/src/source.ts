import { stat } from 'node:fs/promises';
import { dereference } from '@apidevtools/json-schema-ref-parser';
import { OpenApiDocumentError } from './errors.js';

/** Largest OpenAPI document read (bytes), from a file or a URL. */
export const DEFAULT_MAX_DOCUMENT_BYTES = 20 * 1024 * 1024;

/** A loaded OpenAPI document: its `$ref`s resolved, and where it came from. */
export interface LoadedDocument {
  readonly document: Record<string, unknown>;
  /** The URL it was fetched from, to resolve a relative server URL against. */
  readonly url?: string;
}

/**
 * Reads an OpenAPI 3.0 or 3.1 document from a file, a URL or an object, and resolves its `$ref`s
 * (local, and for a file those to other files) with json-schema-ref-parser. Circular references
 * stay as references. Fails with {@link OpenApiDocumentError}.
 */
export async function loadDocument(
  source: string | object,
  options: { maxBytes?: number; fetch?: typeof fetch; timeoutMs?: number } = {},
): Promise<LoadedDocument> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_DOCUMENT_BYTES;
  let parsed: object | string;
  let url: string | undefined;
  if (typeof source !== 'string') parsed = structuredClone(source);
  else if (/^https?:\/\//i.test(source)) {
    url = source;
    parsed = parseText(await fetchText(source, maxBytes, options), source);
  } else {
    const size = await stat(source).then(
      (s) => s.size,
      (failure: NodeJS.ErrnoException) => {
        throw new OpenApiDocumentError(
          `${source}: cannot read: ${failure.code ?? failure.message}`,
        );
      },
    );
    if (size > maxBytes) throw new OpenApiDocumentError(`${source}: larger than ${maxBytes} bytes`);
    parsed = source;
  }
  let document: Record<string, unknown>;
  try {
    document = await dereference<Record<string, unknown>>(parsed as never, {
      resolve: { http: false, external: typeof parsed === 'string' },
      dereference: { circular: 'ignore' },
    });
  } catch (failure) {
    throw new OpenApiDocumentError(`${describe(source)}: ${(failure as Error).message}`);
  }
  const version = typeof document.openapi === 'string' ? document.openapi : '';
  if (!/^3\.[01]\./.test(version))
    throw new OpenApiDocumentError(
      `${describe(source)}: not an OpenAPI 3.0 or 3.1 document (openapi: ${JSON.stringify(document.openapi ?? null)})`,
    );
  return { document, ...(url ? { url } : {}) };
}

function describe(source: string | object): string {
  return typeof source === 'string' ? source : 'the OpenAPI document';
}

function parseText(text: string, source: string): object {
  try {
    return JSON.parse(text) as object;
  } catch {
    throw new OpenApiDocumentError(`${source}: not JSON (fetch YAML documents to a file first)`);
  }
}

async function fetchText(
  url: string,
  maxBytes: number,
  options: { fetch?: typeof fetch; timeoutMs?: number },
): Promise<string> {
  const doFetch = options.fetch ?? fetch;
  let response: Response;
  try {
    response = await doFetch(url, { signal: AbortSignal.timeout(options.timeoutMs ?? 30_000) });
  } catch (failure) {
    throw new OpenApiDocumentError(`${url}: cannot fetch: ${(failure as Error).message}`);
  }
  if (!response.ok) throw new OpenApiDocumentError(`${url}: HTTP ${response.status}`);
  const read = await readBounded(response, maxBytes);
  if (read.cut) throw new OpenApiDocumentError(`${url}: larger than ${maxBytes} bytes`);
  return read.text;
}

/** A response body read up to `maxBytes`: the text, and whether it went on past the cap. */
export async function readBounded(
  response: Response,
  maxBytes: number,
): Promise<{ text: string; cut: boolean; bytes: number }> {
  const reader = (response.body as ReadableStream<Uint8Array> | null)?.getReader();
  if (!reader) return { text: '', cut: false, bytes: 0 };
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (bytes + value.byteLength > maxBytes) {
      chunks.push(value.subarray(0, maxBytes - bytes));
      bytes = maxBytes;
      await reader.cancel().catch(() => undefined);
      return { text: new TextDecoder().decode(concat(chunks, bytes)), cut: true, bytes };
    }
    chunks.push(value);
    bytes += value.byteLength;
  }
  return { text: new TextDecoder().decode(concat(chunks, bytes)), cut: false, bytes };
}

function concat(chunks: readonly Uint8Array[], total: number): Uint8Array {
  const out = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}
