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

/** One POST to `/mcp`, the same bytes every time. */
export function single(body: string, headers: Record<string, string>): AutocannonRequest[] {
  return [{ method: 'POST', path: '/mcp', headers, body }];
}

/**
 * Requests numbered 1, 2, 3, ...: within one legacy session an id must not be reused while a
 * request with it is in flight, so concurrent requests there need ids of their own.
 */
export function numbered(
  body: (id: number) => string,
  headers: Record<string, string>,
): AutocannonRequest[] {
  let next = 1;
  return [
    {
      method: 'POST',
      path: '/mcp',
      headers,
      setupRequest: (request) => ({ ...request, body: body(next++) }),
    },
  ];
}

/**
 * Numbered requests (see {@link numbered}) where each connection keeps to one session of its own:
 * the n-th connection of a slice takes `sessionIds[n % length]`, like many clients each with one
 * request in flight, where no two requests of a session overlap.
 */
export function sessionPerConnection(
  body: (id: number) => string,
  headers: (sessionId: string) => Record<string, string>,
  sessionIds: readonly string[],
): AutocannonRequest[] {
  const headerSets = sessionIds.map(headers);
  let next = 1;
  let assigned = 0;
  return [
    {
      method: 'POST',
      path: '/mcp',
      setupRequest: (request, context) => {
        context.headers ??= headerSets[assigned++ % headerSets.length];
        return {
          ...request,
          headers: context.headers as Record<string, string>,
          body: body(next++),
        };
      },
    },
  ];
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
