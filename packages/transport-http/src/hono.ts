import type { Endpoint } from '@rondo/core';
import { createFetchHandler, type FetchHandler } from './fetchHandler.js';
import type { HttpTransportOptions } from './options.js';

/**
 * The members of a Hono `Context` used here. Typed by shape, not by hono's own types: hono is an
 * optional peer, so a consumer without it must still compile these declarations.
 */
export interface HonoContextLike {
  req: { path: string; raw: Request };
  env: unknown;
  /**
   * The runtime's execution context (a Worker's `ctx`). Hono's getter throws where the runtime
   * gave none (Node, Bun, Deno), so it is read inside a `try`.
   */
  readonly executionCtx?: { waitUntil(work: Promise<unknown>): void };
}

/**
 * A Hono middleware serving an MCP endpoint (it fits hono's `MiddlewareHandler`); `close()` ends
 * its sessions.
 */
export interface McpHonoMiddleware extends Pick<FetchHandler, 'close' | 'sessionCount'> {
  (c: HonoContextLike, next: () => Promise<void>): Promise<Response | void>;
}

/**
 * A Hono middleware serving an MCP endpoint at `options.path` (default `/mcp`), plus the
 * Protected Resource Metadata when `options.auth` is set, over the fetch handler. Other paths go
 * on to the app's next handler: `app.use(mcpHono(endpoint))`, or `app.all('/mcp', mcpHono(endpoint))`.
 */
export function mcpHono(endpoint: Endpoint, options?: HttpTransportOptions): McpHonoMiddleware {
  const handler = createFetchHandler(endpoint, options);
  const path = options?.path ?? '/mcp';
  const middleware = async (
    c: HonoContextLike,
    next: () => Promise<void>,
  ): Promise<Response | void> => {
    if (!ownsPath(c.req.path, path, options !== undefined && options.auth !== undefined))
      return next();
    return handler(c.req.raw, { ...localAddressOf(c.env), waitUntil: waitUntilOf(c) });
  };
  return Object.defineProperties(middleware, {
    close: { value: () => handler.close() },
    sessionCount: { get: () => handler.sessionCount },
  }) as McpHonoMiddleware;
}

/** The MCP path (a trailing slash allowed) and, with auth, the metadata paths. */
function ownsPath(pathname: string, path: string, hasAuth: boolean): boolean {
  const trimmed = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return (
    trimmed === path || (hasAuth && trimmed.startsWith('/.well-known/oauth-protected-resource'))
  );
}

/**
 * On Node (`@hono/node-server`), the socket's addresses: the local one for the Host guard's
 * default, the peer's for the per-client caps.
 */
function localAddressOf(
  env: unknown,
): { localAddress?: string | undefined; remoteAddress?: string | undefined } | undefined {
  const incoming = (
    env as { incoming?: { socket?: { localAddress?: string; remoteAddress?: string } } } | undefined
  )?.incoming;
  const socket = incoming?.socket;
  return socket
    ? { localAddress: socket.localAddress, remoteAddress: socket.remoteAddress }
    : undefined;
}

/**
 * A Worker's `ctx.waitUntil`, so that work that outlives the response (a background run) goes on
 * as it does through the fetch handler; undefined where the runtime keeps running anyway.
 */
function waitUntilOf(c: HonoContextLike): ((work: Promise<unknown>) => void) | undefined {
  try {
    const context = c.executionCtx;
    return context ? (work) => context.waitUntil(work) : undefined;
  } catch {
    // Hono throws "This context has no ExecutionContext": nothing to keep alive.
    return undefined;
  }
}
