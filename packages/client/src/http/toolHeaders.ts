import { isPlainObject } from '@rondo/protocol';

/**
 * The 2026-07-28 HTTP headers that mirror a request's body, so proxies can route without reading
 * it: `Mcp-Method`, `Mcp-Name`, and one `Mcp-Param-<Name>` for each tool argument whose schema
 * property carries `x-mcp-header`. A value that is not plain visible ASCII (non-ASCII, control
 * characters, edge whitespace) travels Base64-encoded as `=?base64?…?=`.
 */

/** One `x-mcp-header` declaration of a tool: where the argument is and the header's name. */
export interface HeaderParam {
  readonly path: readonly string[];
  readonly header: string;
}

/** The body member `Mcp-Name` mirrors, by method. */
const NAME_SOURCE: Readonly<Record<string, string>> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId',
};

/** RFC 9110 token characters: what a header name may hold. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// A number's text form is not canonical (1e3, 1000.0), so only integers may be mirrored.
const PRIMITIVE_TYPES = new Set(['string', 'integer', 'boolean']);

/** The headers that mirror a modern request's method and name. */
export function standardHeaders(
  method: string,
  params: Record<string, unknown> | undefined,
): Record<string, string> {
  const headers: Record<string, string> = { 'Mcp-Method': method };
  const source = NAME_SOURCE[method];
  const name = source === undefined ? undefined : params?.[source];
  if (typeof name === 'string') headers['Mcp-Name'] = encodeHeaderValue(name);
  return headers;
}

/** The `Mcp-Param-*` headers of one call; an argument that is absent or null gets none. */
export function paramHeaders(
  declared: readonly HeaderParam[],
  args: Record<string, unknown> | undefined,
): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const param of declared) {
    const value = valueAt(args, param.path);
    if (typeof value === 'string') headers[`Mcp-Param-${param.header}`] = encodeHeaderValue(value);
    else if (typeof value === 'number' || typeof value === 'boolean') {
      headers[`Mcp-Param-${param.header}`] = String(value);
    }
  }
  return headers;
}

/**
 * A tool's `x-mcp-header` declarations, or why they are invalid (an empty or non-token name, a
 * name used twice ignoring case, a declaration on a property that is not a primitive). A tool with
 * invalid declarations must not be called, since no request to it could carry its headers.
 */
export function headerParamsOf(
  inputSchema: unknown,
): { ok: true; params: HeaderParam[] } | { ok: false; reason: string } {
  const params: HeaderParam[] = [];
  const seen = new Set<string>();
  const pending: { schema: unknown; path: string[] }[] = [{ schema: inputSchema, path: [] }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const properties = isPlainObject(next.schema) ? next.schema.properties : undefined;
    if (!isPlainObject(properties)) continue;
    for (const [key, property] of Object.entries(properties)) {
      if (!isPlainObject(property)) continue;
      const path = [...next.path, key];
      pending.push({ schema: property, path });
      if (!('x-mcp-header' in property)) continue;
      const header = property['x-mcp-header'];
      const problem = headerProblem(header, property, seen);
      if (problem !== undefined) return { ok: false, reason: `${path.join('.')}: ${problem}` };
      seen.add((header as string).toLowerCase());
      params.push({ path, header: header as string });
    }
  }
  return { ok: true, params };
}

function headerProblem(
  header: unknown,
  property: Record<string, unknown>,
  seen: ReadonlySet<string>,
): string | undefined {
  if (typeof header !== 'string' || header.length === 0) return 'x-mcp-header is empty';
  if (!TOKEN.test(header)) return `x-mcp-header "${header}" is not a header name`;
  if (seen.has(header.toLowerCase())) return `x-mcp-header "${header}" is declared twice`;
  const type = property.type;
  if (typeof type !== 'string' || !PRIMITIVE_TYPES.has(type)) {
    return 'x-mcp-header is only allowed on string, integer and boolean properties';
  }
  return undefined;
}

/** A header value: as is when it is plain visible ASCII, else the Base64 sentinel form. */
export function encodeHeaderValue(value: string): string {
  if (/^[\x21-\x7E]([\x20-\x7E]*[\x21-\x7E])?$/.test(value) || value === '') return value;
  const bytes = new TextEncoder().encode(value);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return `=?base64?${btoa(binary)}?=`;
}

function valueAt(args: unknown, path: readonly string[]): unknown {
  let current = args;
  for (const key of path) {
    if (!isPlainObject(current)) return undefined;
    current = current[key];
  }
  return current;
}
