/** The JSON-RPC shapes the playground sends and receives (it trusts nothing else about them). */

export type RequestId = string | number;
export type JsonObject = Record<string, unknown>;

export interface JsonRpcRequest {
  jsonrpc: '2.0';
  id: RequestId;
  method: string;
  params: JsonObject;
}

export interface JsonRpcNotification {
  jsonrpc: '2.0';
  method: string;
  params?: JsonObject;
}

export interface JsonRpcResponse {
  jsonrpc: '2.0';
  id: RequestId | null;
  result?: JsonObject;
  error?: { code: number; message: string; data?: unknown };
}

export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse;

/** True for a response (a result or an error). */
export function isResponse(message: JsonRpcMessage): message is JsonRpcResponse {
  return 'id' in message && ('result' in message || 'error' in message);
}

/** True for a notification. */
export function isNotification(message: JsonRpcMessage): message is JsonRpcNotification {
  return 'method' in message && !('id' in message);
}

/** A JSON-RPC error answer, thrown by the client so callers can show its code and data. */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(`${message} (${code})`);
  }
}

/** Parses one message; anything that is not a JSON object is reported, not thrown. */
export function parseMessage(text: string): JsonRpcMessage | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as JsonRpcMessage)
      : undefined;
  } catch {
    return undefined;
  }
}

/** Reads a string-keyed object member that may be absent. */
export function objectAt(value: unknown, key: string): JsonObject | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const member = (value as JsonObject)[key];
  return typeof member === 'object' && member !== null && !Array.isArray(member)
    ? (member as JsonObject)
    : undefined;
}

/** A member shown as text: strings and numbers as they are, anything else as `fallback`. */
export function textOf(value: unknown, fallback = ''): string {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
    ? String(value)
    : fallback;
}
