import { LATEST_LEGACY_REVISION, LATEST_MODERN_REVISION, MetaKey } from '@rondo/protocol';

/**
 * The JSON-RPC messages and HTTP headers every contender is sent: the same bytes for all of them,
 * built once per scenario so the load generators only copy buffers.
 */

/** The modern revision measured. */
export const MODERN_REVISION = LATEST_MODERN_REVISION;
/** The legacy revision measured. */
export const LEGACY_REVISION = LATEST_LEGACY_REVISION;

const MODERN_META = {
  [MetaKey.protocolVersion]: MODERN_REVISION,
  [MetaKey.clientCapabilities]: { elicitation: { form: {} } },
  [MetaKey.clientInfo]: { name: 'rondo-bench', version: '1.0.0' },
};

/** The echo tool's arguments: a short text, like a typical small tool call. */
export const ECHO_ARGUMENTS = { text: 'hello from the benchmark' };

type Params = Record<string, unknown>;

/** A modern request: the `_meta` envelope on every request, no session. */
export function modernRequest(id: number, method: string, params: Params = {}): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id,
    method,
    params: { ...params, _meta: MODERN_META },
  });
}

/** A modern `tools/call` of the echo tool. */
export function modernEcho(id: number): string {
  return modernRequest(id, 'tools/call', { name: 'echo', arguments: ECHO_ARGUMENTS });
}

/**
 * A modern `tools/call` of the conformance fixture's `greet` tool (it has no echo): the echo's text
 * as its one string argument, answered with one text item.
 */
export function fixtureGreet(id: number): string {
  return modernRequest(id, 'tools/call', {
    name: 'greet',
    arguments: { name: ECHO_ARGUMENTS.text },
  });
}

/** A legacy `tools/call` of the echo tool (inside a session: no envelope). */
export function legacyEcho(id: number): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'echo', arguments: ECHO_ARGUMENTS },
  });
}

/** A legacy `initialize` asking for {@link LEGACY_REVISION}. */
export function legacyInitialize(id: number): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'initialize',
    params: {
      protocolVersion: LEGACY_REVISION,
      capabilities: {},
      clientInfo: { name: 'rondo-bench', version: '1.0.0' },
    },
  });
}

/** `notifications/initialized`, which completes a legacy handshake. */
export const LEGACY_INITIALIZED = JSON.stringify({
  jsonrpc: '2.0',
  method: 'notifications/initialized',
});

/**
 * One round of the 3-round MRTR flow on the `mrtr` tool: round 1 asks with no answers; rounds 2
 * and 3 answer the previous round's question (`q1`, `q2`) and echo its requestState.
 */
export function mrtrRound(id: number, round: number, requestState?: string): string {
  const params: Params = { name: 'mrtr', arguments: ECHO_ARGUMENTS };
  if (round > 1) {
    params.inputResponses = { [`q${round - 1}`]: { action: 'accept', content: { ok: true } } };
    params.requestState = requestState;
  }
  return modernRequest(id, 'tools/call', params);
}

/** HTTP headers of a modern POST (the era's mirrored headers included). */
export function modernHeaders(method: string, name?: string): Record<string, string> {
  return {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': MODERN_REVISION,
    'mcp-method': method,
    ...(name ? { 'mcp-name': name } : {}),
  };
}

/** HTTP headers of a legacy POST inside a session. */
export function legacyHeaders(sessionId: string | undefined): Record<string, string> {
  return {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': LEGACY_REVISION,
    ...(sessionId ? { 'mcp-session-id': sessionId } : {}),
  };
}
