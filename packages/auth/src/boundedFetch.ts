import { ConfigurationError, TokenRejectedError } from '@rondo/core';

/** A verifier's URL option, or a `ConfigurationError` naming it. */
export function urlOption(value: string | URL, option: string, verifier: string): URL {
  try {
    return new URL(value);
  } catch {
    throw new ConfigurationError(`${verifier}: ${option} is not a URL (${String(value)})`);
  }
}

/** How long and how large one fetch of a verifier may be. */
export interface FetchBounds {
  timeoutMs: number;
  maxBytes: number;
}

/** A response read whole, within its bounds. */
export interface BoundedResponse {
  status: number;
  headers: Headers;
  body: Uint8Array;
}

/**
 * Fetches `url` and reads its body, giving up after `timeoutMs` (headers and body together) or
 * past `maxBytes`, so an authorization server that hangs or floods cannot hold a request longer
 * or more memory than that. Every failure is a `verifier_unavailable` rejection naming `what`.
 */
export async function fetchBounded(
  url: URL,
  init: RequestInit,
  bounds: FetchBounds,
  what: string,
): Promise<BoundedResponse> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), bounds.timeoutMs);
  try {
    const response = await fetch(url, { ...init, signal: controller.signal });
    const declared = Number(response.headers.get('content-length') ?? Number.NaN);
    if (declared > bounds.maxBytes) {
      await response.body?.cancel().catch(() => undefined);
      throw tooLarge(what, bounds.maxBytes);
    }
    const body = await readCapped(response, bounds.maxBytes, what);
    return { status: response.status, headers: response.headers, body };
  } catch (error) {
    if (error instanceof TokenRejectedError) throw error;
    const reason = controller.signal.aborted
      ? `no answer within ${bounds.timeoutMs} ms`
      : 'the request failed';
    throw new TokenRejectedError('verifier_unavailable', `${what} could not be read (${reason})`, {
      cause: error,
    });
  } finally {
    clearTimeout(timer);
  }
}

async function readCapped(response: Response, maxBytes: number, what: string): Promise<Uint8Array> {
  if (!response.body) return new Uint8Array(0);
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(what, maxBytes);
    }
    chunks.push(value);
  }
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

function tooLarge(what: string, maxBytes: number): TokenRejectedError {
  return new TokenRejectedError(
    'verifier_unavailable',
    `${what} could not be read (larger than ${maxBytes} bytes)`,
  );
}

/** The JSON object a response holds, or a `verifier_unavailable` rejection naming `what`. */
export function jsonObjectOf(response: BoundedResponse, what: string): Record<string, unknown> {
  if (response.status !== 200)
    throw new TokenRejectedError(
      'verifier_unavailable',
      `${what} could not be read (HTTP ${response.status})`,
    );
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder().decode(response.body));
  } catch {
    value = undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new TokenRejectedError(
      'verifier_unavailable',
      `${what} could not be read (not a JSON object)`,
    );
  return value as Record<string, unknown>;
}
