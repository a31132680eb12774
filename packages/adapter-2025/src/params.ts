import {
  ErrorCode,
  McpError,
  isPlainObject,
  legacyRequestParams,
  parseRequestParams,
} from '@rondo/protocol';

/**
 * Reading inbound params. Every request is first checked against the legacy zod schema of its
 * method (`legacyRequestParams` of @rondo/protocol); each method then reads what it needs with the
 * helpers below, which also answer a wrong shape with -32602 naming the member.
 */

/** Checks a request's params against its method's legacy schema; -32602 names the member at fault. */
export function checkRequestParams(method: string, params: unknown): void {
  const schema = legacyRequestParams[method];
  if (schema === undefined) return;
  const outcome = parseRequestParams(schema, params);
  if (!outcome.ok) throw invalidParams(method, outcome.message);
}

/** A failure of inbound params (-32602). */
export function invalidParams(method: string, detail: string): McpError {
  return new McpError(ErrorCode.InvalidParams, `Invalid params for ${method}: ${detail}`);
}

/** A required string member. */
export function requiredString(
  params: Record<string, unknown>,
  key: string,
  method: string,
): string {
  const value = params[key];
  if (typeof value !== 'string') throw invalidParams(method, `${key} must be a string`);
  return value;
}

/** An optional object member (`{}` when absent). */
export function optionalObject(
  params: Record<string, unknown>,
  key: string,
  method: string,
): Record<string, unknown> {
  const value = params[key];
  if (value === undefined) return {};
  if (!isPlainObject(value)) throw invalidParams(method, `${key} must be an object`);
  return value;
}

/** An optional object member whose values are all strings (prompt arguments, completion context). */
export function optionalStringRecord(
  params: Record<string, unknown>,
  key: string,
  method: string,
): Record<string, string> {
  const value = optionalObject(params, key, method);
  for (const [name, member] of Object.entries(value)) {
    if (typeof member !== 'string') throw invalidParams(method, `${key}.${name} must be a string`);
  }
  return value as Record<string, string>;
}
