import { ErrorCode, McpError, isPlainObject, type JsonObject } from '@rondo/protocol';
import type { ToolDefinition } from '@rondo/core';
import { base64ToBytes, bytesToBase64 } from '@rondo/core/internal';

/**
 * The HTTP header rules of the modern era: the standard headers mirror the body
 * (`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`) and a tool's `x-mcp-header` properties are
 * mirrored as `Mcp-Param-<Name>`. A header that is missing, malformed or disagrees with the body is
 * -32020 (HTTP 400), so that a proxy routing on headers and the server acting on the body cannot
 * see two different requests. Header names arrive lower-cased from the transport; values are
 * compared case-sensitively after trimming optional whitespace.
 */

/** Transport headers by lower-case name, as {@link Exchange.headers} holds them. */
export type HeaderMap = Readonly<Record<string, string | string[] | undefined>>;

/** The body member `Mcp-Name` mirrors, for the methods of the era that need it. */
const NAME_SOURCE: ReadonlyMap<string, string> = new Map([
  ['tools/call', 'name'],
  ['prompts/get', 'name'],
  ['resources/read', 'uri'],
]);

/** Visible ASCII, space and tab: what RFC 9110 allows in a field value. */
const FIELD_VALUE = /^[\t\x20-\x7E]*$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const SENTINEL_PREFIX = '=?base64?';
const SENTINEL_SUFFIX = '?=';
const NUMBER_TEXT = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Checks the standard headers of one request against its body and its `_meta` version;
 * `nameParam` is the member an extension method routes on (its `Mcp-Name`), if any.
 */
export function checkStandardHeaders(
  headers: HeaderMap,
  method: string,
  params: Record<string, unknown> | undefined,
  metaVersion: string,
  nameParam?: string,
): void {
  const version = readHeader(headers, 'mcp-protocol-version', 'MCP-Protocol-Version');
  if (version === undefined) throw mismatch('the MCP-Protocol-Version header is required');
  if (version !== metaVersion) {
    throw mismatch(
      `the MCP-Protocol-Version header "${version}" does not match _meta protocolVersion "${metaVersion}"`,
    );
  }
  const methodHeader = readHeader(headers, 'mcp-method', 'Mcp-Method');
  if (methodHeader === undefined) throw mismatch('the Mcp-Method header is required');
  if (methodHeader !== method) {
    throw mismatch(
      `the Mcp-Method header "${methodHeader}" does not match the body method "${method}"`,
    );
  }
  const source = NAME_SOURCE.get(method) ?? nameParam;
  const bodyName = source === undefined ? undefined : params?.[source];
  if (typeof bodyName !== 'string') return;
  const nameHeader = readHeader(headers, 'mcp-name', 'Mcp-Name');
  if (nameHeader === undefined) throw mismatch(`the Mcp-Name header is required for ${method}`);
  if (decodeSentinel(nameHeader, 'Mcp-Name') !== bodyName) {
    throw mismatch(`the Mcp-Name header does not match the body ${source}`);
  }
}

/** One `x-mcp-header` property of a tool's input schema. */
interface MirroredParam {
  /** The chain of `properties` keys leading to the property. */
  readonly path: readonly string[];
  /** The header's display name (`Mcp-Param-Region`). */
  readonly display: string;
  /** The lower-case header name the transport uses. */
  readonly header: string;
}

/** Mirrored parameters by tool definition, derived once per definition. */
const plans = new WeakMap<ToolDefinition, readonly MirroredParam[]>();

/** Checks a `tools/call`'s `Mcp-Param-*` headers against the arguments in its body. */
export function checkParamHeaders(headers: HeaderMap, tool: ToolDefinition, args: unknown): void {
  let plan = plans.get(tool);
  if (plan === undefined) {
    plan = collectMirroredParams(tool.inputSchema, []);
    plans.set(tool, plan);
  }
  for (const param of plan) {
    const value = valueAt(args, param.path);
    const given = readHeader(headers, param.header, param.display);
    if (value === undefined || value === null) {
      if (given !== undefined)
        throw mismatch(`the ${param.display} header is given but the argument is absent`);
      continue;
    }
    if (given === undefined)
      throw mismatch(`the ${param.display} header is required: the argument has a value`);
    if (!mirrors(decodeSentinel(given, param.display), value)) {
      throw mismatch(`the ${param.display} header does not match the argument`);
    }
  }
}

function collectMirroredParams(schema: JsonObject, path: readonly string[]): MirroredParam[] {
  const found: MirroredParam[] = [];
  const properties = schema.properties;
  if (!isPlainObject(properties)) return found;
  for (const [key, property] of Object.entries(properties)) {
    if (!isPlainObject(property)) continue;
    const suffix = property['x-mcp-header'];
    const here = [...path, key];
    if (typeof suffix === 'string' && suffix.length > 0) {
      found.push({
        path: here,
        display: `Mcp-Param-${suffix}`,
        header: `mcp-param-${suffix.toLowerCase()}`,
      });
    }
    found.push(...collectMirroredParams(property, here));
  }
  return found;
}

function valueAt(args: unknown, path: readonly string[]): unknown {
  let current = args;
  for (const key of path) {
    if (!isPlainObject(current)) return undefined;
    current = current[key];
  }
  return current;
}

/** Compares a decoded header with a body value the way the client encodes it. */
function mirrors(header: string, value: unknown): boolean {
  if (typeof value === 'string') return header === value;
  if (typeof value === 'boolean') return header === String(value);
  // Integers compare numerically, so "42.0" mirrors 42.
  if (typeof value === 'number') return NUMBER_TEXT.test(header) && Number(header) === value;
  // Objects and arrays cannot be mirrored; a declaration on such a property never matches.
  return false;
}

/** Reads one header: trimmed of optional whitespace, refused when repeated or not a field value. */
function readHeader(headers: HeaderMap, name: string, display: string): string | undefined {
  let raw = headers[name];
  if (raw === undefined) return undefined;
  if (Array.isArray(raw)) {
    const [only] = raw;
    if (raw.length !== 1 || only === undefined) throw mismatch(`the ${display} header is repeated`);
    raw = only;
  }
  if (!FIELD_VALUE.test(raw)) throw mismatch(`the ${display} header contains invalid characters`);
  // Most values have no optional whitespace to trim: skip the regex for those.
  return hasEdgeWhitespace(raw) ? raw.replace(/^[ \t]+|[ \t]+$/g, '') : raw;
}

function hasEdgeWhitespace(value: string): boolean {
  if (value.length === 0) return false;
  const first = value.charCodeAt(0);
  const last = value.charCodeAt(value.length - 1);
  return first === 0x20 || first === 0x09 || last === 0x20 || last === 0x09;
}

/**
 * Decodes the Base64 sentinel `=?base64?…?=` strictly: canonical padding, the standard alphabet and
 * valid UTF-8, since a lenient decoder would let two different headers mean one value. Anything
 * without both markers is a literal value.
 */
export function decodeSentinel(value: string, display: string): string {
  if (!value.startsWith(SENTINEL_PREFIX) || !value.endsWith(SENTINEL_SUFFIX)) return value;
  if (value.length < SENTINEL_PREFIX.length + SENTINEL_SUFFIX.length) return value;
  const encoded = value.slice(SENTINEL_PREFIX.length, -SENTINEL_SUFFIX.length);
  if (encoded.length % 4 !== 0 || !BASE64.test(encoded)) {
    throw mismatch(`the ${display} header has an invalid Base64 value`);
  }
  const bytes = base64ToBytes(encoded);
  if (bytesToBase64(bytes) !== encoded)
    throw mismatch(`the ${display} header has an invalid Base64 value`);
  try {
    return utf8.decode(bytes);
  } catch {
    throw mismatch(`the ${display} header's Base64 value is not UTF-8`);
  }
}

function mismatch(reason: string): McpError {
  return new McpError(ErrorCode.HeaderMismatch, `Header mismatch: ${reason}`);
}
