import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Endpoint } from '@rondo/core';
import { applyCors } from './cors.js';
import { authenticate, isMetadataPath, serveMetadata, type AuthOutcome } from './oauth.js';
import { resolveOptions, type HttpTransportOptions, type ResolvedHttpOptions } from './options.js';
import { handlePost } from './post.js';
import { reject } from './reply.js';
import { guardHostAndOrigin } from './security.js';
import { SessionRegistry } from './sessions.js';
import { StreamBudget } from './streamBudget.js';
import { handleDelete, handleGet } from './streams.js';

const ANONYMOUS: AuthOutcome = { ok: true, principal: undefined };

/** A node `(req, res)` handler serving an MCP endpoint; `next` (connect style) gets other paths. */
export interface HttpHandler {
  (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void): void;
  /** Closes every session and open response. The endpoint itself stays open. */
  close(): Promise<void>;
  /** How many sessions are live. */
  readonly sessionCount: number;
}

/** The transport's pieces, shared by the node handler and the express router. */
export interface McpService {
  options: ResolvedHttpOptions;
  /** Serves a request already known to be for the MCP path. */
  serveMcp(req: IncomingMessage, res: ServerResponse): void;
  /** Serves the metadata path if `pathname` is one; false otherwise. */
  serveWellKnown(pathname: string, res: ServerResponse): boolean;
  close(): Promise<void>;
  readonly sessionCount: number;
}

/** Builds the transport's pieces for an endpoint. */
export function createMcpService(endpoint: Endpoint, options?: HttpTransportOptions): McpService {
  const resolved = resolveOptions(options);
  endpoint.servedOverNetwork?.();
  const sessions = new SessionRegistry(resolved.eventStore, resolved.sessionIdleTimeoutMs, {
    maxSessions: resolved.maxSessions,
    maxSessionsPerPrincipal: resolved.maxSessionsPerPrincipal,
  });
  const open = new Set<() => void>();
  const streams = new StreamBudget(resolved.maxOpenStreams);
  const context = { endpoint, sessions, options: resolved, open, streams };

  const serve = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const verdict = guardHostAndOrigin(req, resolved.guard);
    if (!verdict.ok) return reject(res, verdict.status, verdict.reason);
    if (applyCors(req, res)) return;
    // Without auth there is nothing to wait for: no await, so no extra microtask turn.
    const auth = resolved.auth ? await authenticate(req, res, resolved.auth) : ANONYMOUS;
    if (!auth.ok) return;
    switch (req.method ?? '') {
      case 'POST':
        return handlePost(req, res, auth.principal, context);
      case 'GET':
        return handleGet(req, res, auth.principal, context);
      case 'DELETE':
        return handleDelete(req, res, auth.principal, sessions);
      default:
        return reject(res, 405, `Method Not Allowed: ${req.method ?? ''}`, {
          allow: 'POST, GET, DELETE',
        });
    }
  };

  return {
    options: resolved,
    serveMcp(req, res) {
      serve(req, res).catch((error: unknown) => {
        resolved.onError(error);
        if (!res.headersSent) reject(res, 500, 'Internal Server Error');
        else res.end();
      });
    },
    serveWellKnown(pathname, res) {
      if (!resolved.auth || !isMetadataPath(pathname, resolved.auth, resolved.path)) return false;
      serveMetadata(res, resolved.auth);
      return true;
    },
    async close() {
      sessions.closeAll();
      for (const shutdown of [...open]) shutdown();
    },
    get sessionCount() {
      return sessions.size;
    },
  };
}

/**
 * A node `(req, res)` handler for an MCP endpoint over Streamable HTTP: stateless POSTs and
 * sessions (connections the endpoint made stateful). It serves `options.path` (default `/mcp`) and, with
 * `options.auth`, the Protected Resource Metadata; other paths go to `next`, or get 404.
 */
export function createHttpHandler(endpoint: Endpoint, options?: HttpTransportOptions): HttpHandler {
  const service = createMcpService(endpoint, options);
  const handler = (
    req: IncomingMessage,
    res: ServerResponse,
    next?: (error?: unknown) => void,
  ): void => {
    const pathname = pathnameOf(req.url);
    if (pathname === service.options.path) return service.serveMcp(req, res);
    if (req.method === 'GET' && service.serveWellKnown(pathname, res)) return;
    if (next) return next();
    reject(res, 404, `Not Found: ${pathname}`);
  };
  return Object.defineProperties(handler, {
    close: { value: () => service.close() },
    sessionCount: { get: () => service.sessionCount },
  }) as HttpHandler;
}

function pathnameOf(url: string | undefined): string {
  // The common case, a plain path without query or trailing slash, needs no splitting.
  if (url !== undefined && url.length > 1 && !url.includes('?') && !url.endsWith('/')) return url;
  const path = (url ?? '/').split('?')[0] ?? '/';
  return path.length > 1 ? path.replace(/\/+$/, '') : path;
}
