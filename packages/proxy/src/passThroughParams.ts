import { MetaKey, TASKS_EXTENSION, isPlainObject } from '@rondo/protocol';

/** The client capabilities an upstream may ask a caller for (the rest stay with the gateway). */
const ASKABLE = ['elicitation', 'sampling', 'roots'] as const;
const ASKABLE_KEYS: ReadonlySet<string> = new Set(ASKABLE);

/** Transport headers by lower-case name, as an exchange holds them. */
type HeaderMap = Readonly<Record<string, string | string[] | undefined>>;

/** The Tasks extension's settings a request's `_meta` declares, if it declares the extension. */
export function declaredTasks(meta: Record<string, unknown>): Record<string, unknown> | undefined {
  const capabilities = meta[MetaKey.clientCapabilities];
  if (!isPlainObject(capabilities) || !isPlainObject(capabilities.extensions)) return undefined;
  const settings = capabilities.extensions[TASKS_EXTENSION];
  return isPlainObject(settings) ? settings : undefined;
}

/**
 * The `_meta` sent upstream: the caller's, with only the input capabilities it declared and, when
 * `keepTasks`, its Tasks extension (the gateway answers for the rest: other extensions are the
 * gateway's to serve). Unchanged `_meta` is returned as it is, not copied.
 */
export function upstreamMeta(
  meta: Record<string, unknown>,
  keepTasks: boolean,
): Record<string, unknown> {
  const capabilities = meta[MetaKey.clientCapabilities];
  if (!isPlainObject(capabilities)) return meta;
  const tasks = keepTasks ? declaredTasks(meta) : undefined;
  const onlyTasks =
    tasks !== undefined && Object.keys(capabilities.extensions as object).length === 1;
  let unchanged = true;
  for (const key in capabilities) {
    if (ASKABLE_KEYS.has(key) || (key === 'extensions' && onlyTasks)) continue;
    unchanged = false;
    break;
  }
  if (unchanged) return meta;
  const kept: Record<string, unknown> = {};
  for (const askable of ASKABLE) {
    if (capabilities[askable] !== undefined) kept[askable] = capabilities[askable];
  }
  if (tasks !== undefined) kept.extensions = { [TASKS_EXTENSION]: tasks };
  return { ...meta, [MetaKey.clientCapabilities]: kept };
}

/**
 * The `tools/call` params sent upstream: the caller's, with the tool's upstream name and the
 * `_meta` of {@link upstreamMeta}. Unchanged params are sent as they are, not copied.
 */
export function upstreamParams(
  params: Record<string, unknown>,
  meta: Record<string, unknown>,
  name: string,
  keepTasks: boolean,
): Record<string, unknown> {
  const sentMeta = upstreamMeta(meta, keepTasks);
  if (sentMeta === meta && name === params.name) return params;
  return { ...params, name, ...(sentMeta === meta ? {} : { _meta: sentMeta }) };
}

/**
 * True when a request may pass through as far as its HTTP headers go: the transport has none
 * (stdio, WebSocket), or its standard headers (`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`)
 * say exactly what the body says and it mirrors no tool argument (`Mcp-Param-*`). Anything else
 * takes the server's pipeline, which checks the headers and answers a disagreement with the
 * precise -32020 (HTTP 400), as it does for a call that does not pass through.
 */
export function headersAgree(
  headers: HeaderMap | undefined,
  method: string,
  name: string,
  version: unknown,
): boolean {
  if (headers === undefined) return true;
  const one = (key: string): string | undefined => {
    const value = headers[key];
    return typeof value === 'string' ? value.trim() : undefined;
  };
  if (one('mcp-protocol-version') !== version) return false;
  if (one('mcp-method') !== method || one('mcp-name') !== name) return false;
  for (const key in headers) if (key.startsWith('mcp-param-')) return false;
  return true;
}

/** Whether a tool's input schema mirrors an argument as a header, by schema (read once each). */
const mirrors = new WeakMap<object, boolean>();

/**
 * True when a tool's input schema marks an argument `x-mcp-header`: the caller must then mirror
 * it as `Mcp-Param-<Name>` over HTTP, which only the pipeline checks (a stdio upstream sees no
 * headers), so such a tool's calls take the pipeline.
 */
export function mirrorsArguments(inputSchema: object): boolean {
  let found = mirrors.get(inputSchema);
  if (found === undefined) {
    found = JSON.stringify(inputSchema).includes('"x-mcp-header"');
    mirrors.set(inputSchema, found);
  }
  return found;
}
