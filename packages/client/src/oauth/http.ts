import { OAuthResponseError } from './errors.js';
import { messageWithCauses } from '../causes.js';

/** How the OAuth client reaches authorization servers and metadata: every answer is untrusted. */
export interface OAuthHttp {
  fetch: typeof fetch;
  /** Deadline for one request, answer body included. */
  timeoutMs: number;
  /** Largest answer body read; a larger one is refused, not buffered. */
  maxBodyBytes: number;
}

/** An answer read in full within the limits. */
export interface OAuthAnswer {
  status: number;
  headers: Headers;
  text: string;
}

/** Default deadline of one request to an authorization server or metadata URL. */
export const DEFAULT_OAUTH_TIMEOUT_MS = 10_000;
/** Default cap on the body of one such answer. */
export const DEFAULT_OAUTH_MAX_BODY_BYTES = 256 * 1024;

/**
 * Sends one request without following redirects (a metadata or token URL that redirects elsewhere is
 * not the one discovered) and reads the answer within the deadline and the size cap.
 */
export async function send(
  http: OAuthHttp,
  url: string,
  init: RequestInit = {},
): Promise<OAuthAnswer> {
  const signal = AbortSignal.timeout(http.timeoutMs);
  const response = await fetchWithin(http, url, { ...init, redirect: 'manual', signal }, signal);
  try {
    const text = await readBounded(response, http.maxBodyBytes, url);
    return { status: response.status, headers: response.headers, text };
  } catch (error) {
    if (error instanceof OAuthResponseError) throw error;
    const why = signal.aborted
      ? `no full answer within ${http.timeoutMs} ms`
      : messageWithCauses(error);
    throw new OAuthResponseError(
      `reading the answer of ${url} failed: ${why}`,
      url,
      response.status,
    );
  }
}

/**
 * One fetch; a GET whose connection failed before any answer (a kept-alive socket the server had
 * just closed) is sent once more within the same deadline. Other methods are not repeated: a token
 * request may have reached the server.
 */
async function fetchWithin(
  http: OAuthHttp,
  url: string,
  init: RequestInit,
  signal: AbortSignal,
): Promise<Response> {
  const repeatable = (init.method ?? 'GET') === 'GET';
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await http.fetch(url, init);
    } catch (error) {
      if (signal.aborted) {
        throw new OAuthResponseError(
          `request to ${url} failed: no answer within ${http.timeoutMs} ms`,
          url,
        );
      }
      if (!repeatable || attempt >= 2) {
        throw new OAuthResponseError(`request to ${url} failed: ${messageWithCauses(error)}`, url);
      }
    }
  }
}

/** Parses an answer's body as a JSON object, or throws a precise error naming the URL. */
export function jsonObject(answer: OAuthAnswer, url: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(answer.text);
  } catch {
    throw new OAuthResponseError(
      `${url} answered ${answer.status} with a body that is not JSON`,
      url,
      answer.status,
    );
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new OAuthResponseError(
      `${url} answered ${answer.status} with JSON that is not an object`,
      url,
      answer.status,
    );
  }
  return value as Record<string, unknown>;
}

async function readBounded(response: Response, maxBytes: number, url: string): Promise<string> {
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw tooLarge(url, response.status, maxBytes);
  }
  const reader: ReadableStreamDefaultReader<Uint8Array> | undefined = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(url, response.status, maxBytes);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}

function tooLarge(url: string, status: number, maxBytes: number): OAuthResponseError {
  return new OAuthResponseError(`${url} answered with a body over ${maxBytes} bytes`, url, status);
}
