import { ErrorCode, type JsonRpcErrorObject } from './errors.js';

/** A JSON-RPC request id: a string or an integer (null, booleans, fractions and objects are refused). */
export type RequestId = string | number;

export interface JsonRpcRequest {
  jsonrpc: '2.0';
  id: RequestId;
  method: string;
  params?: Record<string, unknown>;
}

export interface JsonRpcNotification {
  jsonrpc: '2.0';
  method: string;
  params?: Record<string, unknown>;
}

export interface JsonRpcResultResponse {
  jsonrpc: '2.0';
  id: RequestId;
  result: Record<string, unknown>;
}

export interface JsonRpcErrorResponse {
  jsonrpc: '2.0';
  id: RequestId | null;
  error: JsonRpcErrorObject;
}

export type JsonRpcResponse = JsonRpcResultResponse | JsonRpcErrorResponse;
export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse;

/** The outcome of parsing one frame: a message, or the error response to send back. */
export type ParseOutcome =
  { ok: true; message: JsonRpcMessage } | { ok: false; error: JsonRpcErrorResponse };

/** Builds a JSON-RPC error response. */
export function errorResponse(
  id: RequestId | null,
  code: number,
  message: string,
  data?: unknown,
): JsonRpcErrorResponse {
  const error: JsonRpcErrorObject =
    data === undefined ? { code, message } : { code, message, data };
  return { jsonrpc: '2.0', id, error };
}

/** Builds a JSON-RPC result response. */
export function resultResponse(
  id: RequestId,
  result: Record<string, unknown>,
): JsonRpcResultResponse {
  return { jsonrpc: '2.0', id, result };
}

/** True for a request (has `method` and `id`). */
export function isRequest(message: JsonRpcMessage): message is JsonRpcRequest {
  return 'method' in message && 'id' in message;
}

/** True for a notification (has `method`, no `id`). */
export function isNotification(message: JsonRpcMessage): message is JsonRpcNotification {
  return 'method' in message && !('id' in message);
}

/** True for a response, successful or not. */
export function isResponse(message: JsonRpcMessage): message is JsonRpcResponse {
  return !('method' in message);
}

/**
 * Parses one frame (a stdio line, an HTTP body, a WebSocket text frame) into a message. Bad JSON is
 * -32700 with id null; a structurally wrong message is -32600, carrying its id when it is usable.
 */
export function parseMessage(text: string): ParseOutcome {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return {
      ok: false,
      error: errorResponse(null, ErrorCode.ParseError, 'Parse error: invalid JSON'),
    };
  }
  return validateMessage(value);
}

/** Validates an already decoded JSON value as one JSON-RPC 2.0 message. */
export function validateMessage(value: unknown): ParseOutcome {
  if (Array.isArray(value)) {
    return invalid(null, 'Batch requests are not supported');
  }
  if (!isPlainObject(value)) {
    return invalid(null, 'A JSON-RPC message must be an object');
  }
  const id = value.id;
  const usableId = isValidId(id) ? id : null;
  if (value.jsonrpc !== '2.0') {
    return invalid(usableId, 'The jsonrpc member must be exactly "2.0"');
  }
  if ('id' in value && !isValidId(id) && !isNullIdErrorResponse(value)) {
    return invalid(null, 'The id must be a string or an integer');
  }
  if ('method' in value) {
    return validateCall(value, usableId);
  }
  return validateResponse(value, usableId);
}

function validateCall(value: Record<string, unknown>, id: RequestId | null): ParseOutcome {
  if (typeof value.method !== 'string' || value.method.length === 0) {
    return invalid(id, 'The method must be a non-empty string');
  }
  if ('params' in value && !isPlainObject(value.params)) {
    return invalid(id, 'The params member must be an object');
  }
  if ('result' in value || 'error' in value) {
    return invalid(id, 'A request cannot carry result or error');
  }
  return { ok: true, message: value as unknown as JsonRpcRequest | JsonRpcNotification };
}

function validateResponse(value: Record<string, unknown>, id: RequestId | null): ParseOutcome {
  const hasResult = 'result' in value;
  const hasError = 'error' in value;
  if (hasResult === hasError) {
    return invalid(id, 'A message needs a method, or exactly one of result and error');
  }
  if (hasResult) {
    if (id === null) return invalid(null, 'A result response needs an id');
    if (!isPlainObject(value.result)) return invalid(id, 'The result member must be an object');
    return { ok: true, message: value as unknown as JsonRpcResultResponse };
  }
  const error = value.error;
  if (!isPlainObject(error) || !Number.isInteger(error.code) || typeof error.message !== 'string') {
    return invalid(id, 'The error member must have an integer code and a string message');
  }
  if (!('id' in value)) return invalid(null, 'An error response needs an id (null allowed)');
  return { ok: true, message: value as unknown as JsonRpcErrorResponse };
}

/** An error response may carry `id: null` (the peer could not read the id of what it answers). */
function isNullIdErrorResponse(value: Record<string, unknown>): boolean {
  return value.id === null && 'error' in value && !('method' in value) && !('result' in value);
}

function invalid(id: RequestId | null, message: string): ParseOutcome {
  return {
    ok: false,
    error: errorResponse(id, ErrorCode.InvalidRequest, `Invalid Request: ${message}`),
  };
}

/** True for a string id or a safe integer id. */
export function isValidId(id: unknown): id is RequestId {
  return typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id));
}

/** True for a non-null, non-array object. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A result marked by {@link withSerializedJson}: its JSON text, and its UTF-8 bytes once asked for. */
interface KeptJson {
  text: string;
  bytes?: Uint8Array;
}

const keptResults = new WeakMap<object, KeptJson>();
const utf8 = new TextEncoder();

/**
 * Freezes a result that will be sent many times (a cached list page, say) and serialises it now,
 * so that {@link serializeMessage} and {@link encodeMessage} reuse the kept text instead of
 * serialising it again for every response. The result (and everything in it) must not change
 * afterwards.
 */
export function withSerializedJson<T extends Record<string, unknown>>(result: T): Readonly<T> {
  keptResults.set(result, { text: JSON.stringify(result) });
  return Object.freeze(result);
}

function keptResultOf(message: JsonRpcMessage): KeptJson | undefined {
  return 'result' in message ? keptResults.get(message.result) : undefined;
}

function resultPrefix(id: RequestId): string {
  return `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":`;
}

/**
 * Serialises one message as a single line of JSON. `JSON.stringify` escapes control characters in
 * strings, and no whitespace is added, so the output never contains a raw newline. A result
 * marked by {@link withSerializedJson} is written from its kept text; the output is the same.
 */
export function serializeMessage(message: JsonRpcMessage): string {
  const kept = keptResultOf(message);
  if (kept === undefined) return JSON.stringify(message);
  return `${resultPrefix((message as JsonRpcResultResponse).id)}${kept.text}}`;
}

/**
 * The message as {@link serializeMessage} writes it, in the form cheapest to send: the text, or,
 * for a result marked by {@link withSerializedJson}, UTF-8 bytes copied from the result's kept
 * bytes (encoding a long text again for every response costs more than the rest of the request).
 */
export function encodeMessage(message: JsonRpcMessage): string | Uint8Array {
  const kept = keptResultOf(message);
  if (kept === undefined) return JSON.stringify(message);
  kept.bytes ??= utf8.encode(kept.text);
  const prefix = utf8.encode(resultPrefix((message as JsonRpcResultResponse).id));
  const bytes = new Uint8Array(prefix.length + kept.bytes.length + 1);
  bytes.set(prefix, 0);
  bytes.set(kept.bytes, prefix.length);
  bytes[bytes.length - 1] = 0x7d; // the closing brace of the message
  return bytes;
}
