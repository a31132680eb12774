import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { Readable } from 'node:stream';
import {
  httpTransport,
  type HttpClientTransport,
  type HttpTransportOptions,
} from '../http/streamableHttp.js';

/**
 * The Streamable HTTP transport on `node:http`: {@link httpTransport} with {@link nodeFetch} (kept-
 * alive connections) unless `fetch` is given. The global fetch costs several times the CPU per
 * request; use this one on Node.
 */
export function nodeHttpTransport(
  options: HttpTransportOptions & { readonly connections?: NodeFetchOptions },
): HttpClientTransport {
  return httpTransport({ ...options, fetch: options.fetch ?? nodeFetch(options.connections) });
}

/** How {@link nodeFetch} reaches servers. */
export interface NodeFetchOptions {
  /** Agent for `http:` URLs. Default: a keep-alive agent of this fetch's own. */
  readonly httpAgent?: HttpAgent;
  /** Agent for `https:` URLs. Default: a keep-alive agent of this fetch's own. */
  readonly httpsAgent?: HttpsAgent;
  /** Bodies up to this size with a `Content-Length` are read whole before the answer resolves. Default 1 MiB. */
  readonly bufferBytes?: number;
}

const DEFAULT_BUFFER_BYTES = 1024 * 1024;

/**
 * A `fetch` for the HTTP transport built on `node:http`: what the transport needs (a method,
 * string headers, a string body, an `AbortSignal`) on kept-alive connections, at a fraction of
 * the global fetch's CPU per request. A body with a `Content-Length` up to `bufferBytes` is read
 * whole (the parser never reads past `Content-Length`, so this is bounded); any other body, an
 * SSE stream say, is handed on as a stream for the transport's own caps.
 */
export function nodeFetch(options: NodeFetchOptions = {}): typeof fetch {
  const httpAgent = options.httpAgent ?? new HttpAgent({ keepAlive: true });
  const httpsAgent = options.httpsAgent ?? new HttpsAgent({ keepAlive: true });
  const bufferBytes = options.bufferBytes ?? DEFAULT_BUFFER_BYTES;
  return (input, init = {}) =>
    new Promise<Response>((resolve, reject) => {
      const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
      const signal = init.signal ?? undefined;
      if (signal?.aborted) return reject(signal.reason as Error);
      const secure = url.protocol === 'https:';
      const send = secure ? httpsRequest : httpRequest;
      const request = send(url, {
        method: init.method ?? 'GET',
        headers: init.headers as Record<string, string> | undefined,
        agent: secure ? httpsAgent : httpAgent,
      });
      // An abort ends the request, or the body while it still streams (an SSE answer).
      const abort = (): void => {
        request.destroy(signal?.reason as Error);
        reject(signal?.reason as Error);
      };
      signal?.addEventListener('abort', abort, { once: true });
      request.once('error', reject);
      request.once('close', () => signal?.removeEventListener('abort', abort));
      request.once('response', (message) => {
        answer(message, bufferBytes).then(resolve, reject);
      });
      request.end(typeof init.body === 'string' ? init.body : undefined);
    });
}

/** The answer as a `Response`: read whole when small and of known length, else streamed. */
function answer(message: IncomingMessage, bufferBytes: number): Promise<Response> {
  const status = message.statusCode ?? 502;
  const init = { status, statusText: message.statusMessage ?? '', headers: headersOf(message) };
  if (status === 204 || status === 304) {
    message.resume();
    return Promise.resolve(new Response(null, init));
  }
  const length = Number(message.headers['content-length'] ?? Number.NaN);
  if (!Number.isFinite(length) || length > bufferBytes) {
    return Promise.resolve(
      new Response(Readable.toWeb(message) as ReadableStream<Uint8Array>, init),
    );
  }
  // Listeners, not `for await`: the async iterator costs more than the rest of a small answer.
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    message.on('data', (chunk: Buffer) => chunks.push(chunk));
    message.once('error', reject);
    message.once('end', () => {
      const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
      resolve(new Response(body, init));
    });
  });
}

/** The answer's headers; a repeated header (`Set-Cookie`) is joined as fetch joins it. */
function headersOf(message: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(message.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}
