/** Wire messages the reliability suite sends, both eras. */

export const MODERN = '2026-07-28';
export const LEGACY = '2025-11-25';

/** The `_meta` envelope of a modern request. */
export const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
  'io.modelcontextprotocol/clientInfo': { name: 'rondo-reliability', version: '1.0.0' },
};

export type Message = Record<string, unknown>;

/** A modern request. */
export function modern(id: number | string, method: string, params: Message = {}): Message {
  return { jsonrpc: '2.0', id, method, params: { ...params, _meta: MODERN_META } };
}

/** A legacy request. */
export function legacy(id: number | string, method: string, params?: Message): Message {
  return { jsonrpc: '2.0', id, method, ...(params ? { params } : {}) };
}

/** A legacy `initialize`. */
export function initialize(id: number | string): Message {
  return legacy(id, 'initialize', {
    protocolVersion: LEGACY,
    capabilities: { elicitation: {} },
    clientInfo: { name: 'rondo-reliability', version: '1.0.0' },
  });
}

/** One round of the 3-round MRTR flow on `mrtr`. */
export function mrtrRound(
  id: number | string,
  round: number,
  text: string,
  state?: unknown,
): Message {
  const params: Message = { name: 'mrtr', arguments: { text } };
  if (round > 1) {
    params.inputResponses = { [`q${round - 1}`]: { action: 'accept', content: { ok: true } } };
    params.requestState = state;
  }
  return modern(id, 'tools/call', params);
}

/** Valid messages of both eras: the seeds the fuzzers mutate. */
export const SEED_MESSAGES: Message[] = [
  modern(1, 'tools/call', { name: 'echo', arguments: { text: 'hi' } }),
  modern(2, 'tools/call', { name: 'add', arguments: { a: 1, b: 2 } }),
  modern(3, 'tools/list'),
  modern(4, 'server/discover'),
  mrtrRound(5, 1, 'flow'),
  mrtrRound(6, 2, 'flow', 'not-a-sealed-state'),
  modern(7, 'resources/list'),
  modern(8, 'prompts/get', { name: 'nope' }),
  initialize(9),
  { jsonrpc: '2.0', method: 'notifications/initialized' },
  legacy(10, 'tools/call', { name: 'echo', arguments: { text: 'legacy' } }),
  legacy(11, 'tools/list', {}),
  legacy(12, 'ping'),
  legacy(13, 'logging/setLevel', { level: 'debug' }),
  { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } },
  { jsonrpc: '2.0', id: 14, result: {} },
];

/** True when `value` is a JSON-RPC request a server must answer (a string or safe-integer id, a method). */
export function isAnswerableRequest(
  value: unknown,
): value is Message & { id: string | number; method: string } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const m = value as Message;
  const idOk = typeof m.id === 'string' || (typeof m.id === 'number' && Number.isSafeInteger(m.id));
  return m.jsonrpc === '2.0' && idOk && typeof m.method === 'string' && m.method.length > 0;
}

/** The revision whose schema an answer to `request` follows. */
export function revisionOf(request: unknown): typeof MODERN | typeof LEGACY {
  const params = (request as { params?: { _meta?: Message } } | undefined)?.params;
  return params?._meta?.['io.modelcontextprotocol/protocolVersion'] !== undefined ? MODERN : LEGACY;
}
