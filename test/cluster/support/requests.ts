/** Bare requests the cluster tests send to one replica (past the balancer) or to nginx. */
import { scaled } from '@rondo/test-support/timeFactor';

const LEGACY_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2025-11-25',
};

const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** A legacy `initialize` with no client capabilities. */
export const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'raw', version: '1' },
  },
};

/** POSTs one legacy message, in the session `sessionId` names when given. */
export function legacyPost(url: string, body: object, sessionId?: string): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { ...LEGACY_HEADERS, ...(sessionId ? { 'mcp-session-id': sessionId } : {}) },
    body: JSON.stringify(body),
  });
}

/** A legacy `tools/call` (no arguments) in a session; resolves with the HTTP status. */
export async function legacyCall(url: string, sessionId: string, name: string): Promise<number> {
  const body = { jsonrpc: '2.0', id: Date.now(), method: 'tools/call', params: { name } };
  const response = await legacyPost(url, body, sessionId);
  await response.text();
  return response.status;
}

/** A modern (2026-07-28) `tools/call` with no arguments, headers and `_meta` as the era wants. */
export function modernCall(url: string, name: string): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: {
      ...LEGACY_HEADERS,
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': name,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name, arguments: {}, _meta: MODERN_META },
    }),
  });
}

/** Resolves once `check()` holds; rejects naming `what` after `timeoutMs`. */
export async function until(
  check: () => boolean,
  what: string,
  timeoutMs = scaled(10_000),
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
