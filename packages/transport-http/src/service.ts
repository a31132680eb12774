import {
  MemorySessionRelay,
  MemorySessionStore,
  createMemoryEventStore,
  type Endpoint,
  type SharedState,
} from '@rondo/core';
import { clientOf } from './clients.js';
import { applyCors } from './cors.js';
import type { BodySource, HttpRequest, HttpResponse } from './edge.js';
import { authenticate, isMetadataPath, serveMetadata, type AuthOutcome } from './oauth.js';
import {
  HTTP_TRANSPORT_DEFAULTS,
  resolveOptions,
  type HttpTransportOptions,
  type ResolvedHttpOptions,
} from './options.js';
import { handlePost } from './post.js';
import { reject } from './reply.js';
import { ExtensionRoutes } from './routes.js';
import { guardHostAndOrigin } from './security.js';
import { SessionRegistry } from './sessions.js';
import { StreamBudget } from './streamBudget.js';
import { handleDelete, handleGet } from './streams.js';

const ANONYMOUS: AuthOutcome = { ok: true, principal: undefined };

/**
 * Streamable HTTP, once, for every edge: the node handler, the express router and the fetch
 * handler each turn their request and response into {@link HttpRequest} / {@link HttpResponse}
 * and hand them here.
 */
export interface McpService {
  options: ResolvedHttpOptions;
  /** Serves a request already known to be for the MCP path; `body` reads its body. */
  serveMcp(req: HttpRequest, res: HttpResponse, body: BodySource): void;
  /**
   * Serves the metadata path if `pathname` is one (GET and HEAD; any other method but OPTIONS
   * gets 405 with `Allow: GET, HEAD`); false otherwise.
   */
  serveWellKnown(pathname: string, method: string | undefined, res: HttpResponse): boolean;
  /** Serves a path an extension of the server added (any method); false otherwise. */
  serveRoute(pathname: string, req: HttpRequest, res: HttpResponse): boolean;
  /** The paths the server's extensions serve. */
  readonly routePaths: readonly string[];
  close(): Promise<void>;
  readonly sessionCount: number;
}

/** Builds the transport's pieces for an endpoint. */
export function createMcpService(endpoint: Endpoint, options?: HttpTransportOptions): McpService {
  const seams = endpoint.shared ?? memorySeams(options);
  const resolved = resolveOptions(options, seams.events);
  endpoint.servedOverNetwork?.();
  const sessions = new SessionRegistry(
    resolved.eventStore,
    resolved.sessionIdleTimeoutMs,
    {
      maxSessions: resolved.maxSessions,
      maxSessionsPerClient: resolved.maxSessionsPerClient,
    },
    resolved.onError,
    {
      sessions: seams.sessions,
      relay: seams.relay,
      ttlMs: resolved.sessionIdleTimeoutMs,
      endpoint,
    },
  );
  const open = new Set<() => void>();
  const streams = new StreamBudget(resolved.maxOpenStreams, resolved.maxStreamsPerClient);
  const context = { endpoint, sessions, options: resolved, open, streams };
  const routes = new ExtensionRoutes(
    endpoint.routes ?? [],
    resolved.path,
    resolved.guard,
    resolved.onError,
  );

  const serve = async (req: HttpRequest, res: HttpResponse, body: BodySource): Promise<void> => {
    const verdict = guardHostAndOrigin(req, resolved.guard);
    if (!verdict.ok) return reject(res, verdict.status, verdict.reason);
    if (applyCors(req, res)) return;
    // Without auth there is nothing to wait for: no await, so no extra microtask turn.
    const auth = resolved.auth
      ? await authenticate(req, res, resolved.auth, resolved.path)
      : ANONYMOUS;
    if (!auth.ok) return;
    const client = clientOf(
      req,
      auth.principal,
      resolved.clientAddressHeader,
      resolved.ipv6ClientPrefix,
    );
    switch (req.method ?? '') {
      case 'POST':
        return handlePost(req, res, body, auth.principal, client, context);
      case 'GET':
        return handleGet(req, res, auth.principal, client, context);
      case 'DELETE':
        return handleDelete(req, res, auth.principal, client, sessions);
      default:
        return reject(res, 405, `Method Not Allowed: ${req.method ?? ''}`, {
          allow: 'POST, GET, DELETE',
        });
    }
  };

  return {
    options: resolved,
    serveMcp(req, res, body) {
      serve(req, res, body).catch((error: unknown) => {
        resolved.onError(error);
        if (!res.headersSent) reject(res, 500, 'Internal Server Error');
        else res.end();
      });
    },
    serveWellKnown(pathname, method, res) {
      if (!resolved.auth || !isMetadataPath(pathname, resolved.auth, resolved.path)) return false;
      // OPTIONS is left to whatever answers preflights on this server, as before.
      if (method === 'OPTIONS') return false;
      if (method === 'GET' || method === 'HEAD') serveMetadata(res, resolved.auth);
      else reject(res, 405, `Method Not Allowed: ${method ?? ''}`, { allow: 'GET, HEAD' });
      return true;
    },
    serveRoute: (pathname, req, res) => routes.serve(pathname, req, res),
    routePaths: routes.paths,
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
 * The seams the sessions keep their state in when the endpoint has no shared state: this process's
 * memory defaults, the session store as roomy as the registry (`maxSessions`).
 */
function memorySeams(
  options: HttpTransportOptions | undefined,
): Pick<SharedState, 'events' | 'sessions' | 'relay'> {
  const maxSessions = options?.maxSessions ?? HTTP_TRANSPORT_DEFAULTS.maxSessions;
  return {
    events: createMemoryEventStore(),
    sessions: new MemorySessionStore({ maxSessions }),
    relay: new MemorySessionRelay(),
  };
}

/** The path of a request target without query and trailing slashes (`/mcp/?x` is `/mcp`). */
export function normalisePath(url: string | undefined): string {
  // The common case, a plain path without query or trailing slash, needs no splitting.
  if (url !== undefined && url.length > 1 && !url.includes('?') && !url.endsWith('/')) return url;
  const path = (url ?? '/').split('?')[0] ?? '/';
  return path.length > 1 ? path.replace(/\/+$/, '') : path;
}
