import type { HttpResponse } from './edge.js';
import { ErrorCode, encodeMessage, errorResponse, type JsonRpcMessage } from '@rondo/protocol';

/** Writes one JSON-RPC message as an `application/json` response. */
export function replyJson(
  res: HttpResponse,
  status: number,
  message: JsonRpcMessage,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent || res.destroyed) return;
  const body = encodeMessage(message);
  // Status and headers set directly, with no Content-Length: `end` computes it and writes the
  // head and the body in one chunk.
  res.statusCode = status;
  for (const name in headers) res.setHeader(name, headers[name] as string);
  res.setHeader('content-type', 'application/json');
  res.end(body);
}

/**
 * Refuses an HTTP request before it reaches the server. The body is a JSON-RPC error with id null
 * (the request was not read as a message): -32600, the code for "this request cannot be served".
 */
export function reject(
  res: HttpResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
  data?: unknown,
): void {
  replyJson(res, status, errorResponse(null, ErrorCode.InvalidRequest, message, data), headers);
}

/** Answers with an empty body. */
export function replyEmpty(
  res: HttpResponse,
  status: number,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, headers);
  res.end();
}

/** One request header as a single trimmed string (the first when repeated). */
export function headerValue(
  headers: Readonly<Record<string, string | string[] | undefined>>,
  name: string,
): string | undefined {
  const value = headers[name];
  const first = Array.isArray(value) ? value[0] : value;
  return first?.trim();
}

/**
 * Answers 503 for a request that needed the shared store when it failed: the client may retry, and
 * the store's client reconnects by itself.
 */
export function storeDown(res: HttpResponse, error: unknown): void {
  const reason = error instanceof Error ? error.message : String(error);
  if (res.headersSent) {
    res.end();
    return;
  }
  reject(res, 503, `Service Unavailable: the shared session store failed (${reason})`, {
    'retry-after': '1',
  });
}
