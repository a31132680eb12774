import { ErrorCode, McpError, isPlainObject } from '@rondo/protocol';

/** Small readers of request params that answer -32602 naming the member at fault. */

/** An invalid-params error with a message naming the fault. */
export function invalidParams(reason: string, data?: unknown): McpError {
  return new McpError(ErrorCode.InvalidParams, `Invalid params: ${reason}`, data);
}

/** A required string member. */
export function requireString(params: Record<string, unknown>, key: string): string {
  const value = params[key];
  if (typeof value !== 'string') throw invalidParams(`${key} must be a string`);
  return value;
}

/** An optional object member. */
export function optionalObject(
  params: Record<string, unknown>,
  key: string,
): Record<string, unknown> | undefined {
  const value = params[key];
  if (value === undefined) return undefined;
  if (!isPlainObject(value)) throw invalidParams(`${key} must be an object`);
  return value;
}
