import autocannon, { type AutocannonRequest } from 'autocannon';
import type { ServerChild } from '../child.js';
import { LEGACY_INITIALIZED, legacyHeaders, legacyInitialize } from '../wire.js';
import type { Driver } from './slice.js';

/** HTTP load from autocannon: `connections` keep one request each in flight. */
export interface HttpLoad {
  connections: number;
  /** One request repeated, or a sequence (an MRTR flow) replayed per connection. */
  requests: AutocannonRequest[];
}

/** A driver that runs autocannon slices against a server's MCP URL. */
export function httpDriver(child: ServerChild, load: HttpLoad): Driver {
  const url = child.url('http');
  return async (durationMs) => {
    const result = await autocannon({
      url,
      method: 'POST',
      connections: load.connections,
      duration: `${durationMs}ms`,
      timeout: 20,
      requests: load.requests,
    });
    return {
      requests: result.requests.total,
      durationMs: result.duration * 1000,
      p50: result.latency.p50,
      p99: result.latency.p99,
      errors: result.errors + result.timeouts + result.non2xx,
    };
  };
}

/** Opens a legacy session (initialize, then initialized) and returns its id, if the server issued one. */
export async function openLegacySession(url: string): Promise<string | undefined> {
  const init = await fetch(url, {
    method: 'POST',
    headers: legacyHeaders(undefined),
    body: legacyInitialize(0),
  });
  const sessionId = init.headers.get('mcp-session-id') ?? undefined;
  await init.text();
  if (!init.ok) throw new Error(`initialize failed with HTTP ${init.status}`);
  const done = await fetch(url, {
    method: 'POST',
    headers: legacyHeaders(sessionId),
    body: LEGACY_INITIALIZED,
  });
  await done.text();
  return sessionId;
}
