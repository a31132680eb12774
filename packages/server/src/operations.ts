import type { Endpoint, HttpRoute, ListeningServer, RouteReply } from '@rondo/core';
import { createLimitedServer, listenOn } from '@rondo/core/node';
import type { JsonObject } from '@rondo/protocol';
import { Registry, collectDefaultMetrics } from 'prom-client';

/**
 * The operator's endpoints of a server: `/healthz` (liveness), `/readyz` (readiness, with a JSON
 * report) and `/metrics` (Prometheus text, from a `prom-client` registry), served beside the MCP
 * endpoint by the HTTP and WebSocket transports, or on a listener of their own (`serveRoutes`,
 * for a server on stdio).
 */

/** Whether the server should get traffic now, and why (the JSON `/readyz` answers with). */
export interface Readiness {
  readonly ready: boolean;
  /** Members added to the report (per-dependency states, say). */
  readonly details?: JsonObject;
}

/**
 * Which listener a request reached: `serving`, beside the MCP endpoint (where the server's clients
 * reach it too), or `admin`, the operator's own (`adminPort`, or `serveRoutes` on stdio).
 */
export type OperationsListener = 'serving' | 'admin';

/** What `operationsRoutes` serves. */
export interface OperationsOptions {
  /**
   * Asked at each `/readyz`, with the listener asked; default always ready once serving. Keep what
   * only an operator should read (a dependency's own error output) to the `admin` listener.
   */
  readonly readiness?: (listener: OperationsListener) => Readiness | Promise<Readiness>;
  /**
   * The metrics `/metrics` exposes; default `processMetrics()`: a registry with the process
   * metrics (CPU, memory, event loop lag, handles) only.
   */
  readonly registry?: Registry;
  /** The paths; default `/healthz`, `/readyz` and `/metrics`. */
  readonly paths?: { readonly health?: string; readonly ready?: string; readonly metrics?: string };
}

/** A new `prom-client` registry with the process's default metrics registered in it. */
export function processMetrics(): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return registry;
}

const JSON_TYPE = { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' };

/** A GET-only route (HEAD too); anything else is 405 with `Allow`. */
function getRoute(path: string, answer: () => RouteReply | Promise<RouteReply>): HttpRoute {
  return {
    path,
    async serve(request) {
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        return { status: 405, headers: { Allow: 'GET, HEAD' } };
      }
      const reply = await answer();
      return request.method === 'HEAD'
        ? { status: reply.status, headers: reply.headers ?? {} }
        : reply;
    },
  };
}

/**
 * The routes of the operator's endpoints: `/healthz` answers 200 `{"status":"serving"}` while
 * the process serves; `/readyz` answers the readiness report, 200 when ready and 503 otherwise
 * (a readiness check that throws counts as not ready); `/metrics` the registry's metrics in the
 * Prometheus text format. Give them to {@link withRoutes}, or to {@link serveRoutes} on stdio;
 * `listener` is what `readiness` is told (default `serving`).
 */
export function operationsRoutes(
  options: OperationsOptions = {},
  listener: OperationsListener = 'serving',
): HttpRoute[] {
  const registry = options.registry ?? processMetrics();
  const readiness = options.readiness ?? (() => ({ ready: true }));
  return [
    getRoute(options.paths?.health ?? '/healthz', () => ({
      status: 200,
      headers: JSON_TYPE,
      body: '{"status":"serving"}',
    })),
    getRoute(options.paths?.ready ?? '/readyz', async () => {
      let report: Readiness;
      try {
        report = await readiness(listener);
      } catch (failure) {
        report = { ready: false, details: { error: (failure as Error).message } };
      }
      const body = { status: report.ready ? 'ready' : 'not ready', ...report.details };
      return { status: report.ready ? 200 : 503, headers: JSON_TYPE, body: JSON.stringify(body) };
    }),
    getRoute(options.paths?.metrics ?? '/metrics', async () => ({
      status: 200,
      headers: { 'Content-Type': registry.contentType },
      body: await registry.metrics(),
    })),
  ];
}

/** `endpoint` with `routes` served beside it by the HTTP and WebSocket transports. */
export function withRoutes(endpoint: Endpoint, routes: readonly HttpRoute[]): Endpoint {
  const all = [...(endpoint.routes ?? []), ...routes];
  return Object.create(endpoint, { routes: { value: all, enumerable: true } }) as Endpoint;
}

/**
 * Serves `routes` alone on a `node:http` listener (default `127.0.0.1`, port 0 = a free one): the
 * operator's endpoints of a server whose MCP transport is stdio. Other paths are 404.
 */
export async function serveRoutes(
  routes: readonly HttpRoute[],
  options: { readonly host?: string; readonly port?: number } = {},
): Promise<ListeningServer> {
  const byPath = new Map(routes.map((route) => [route.path, route]));
  const host = options.host ?? '127.0.0.1';
  const server = createLimitedServer({}, (request, response) => {
    const route = byPath.get((request.url ?? '/').split('?')[0] ?? '/');
    const method = request.method ?? 'GET';
    const replying = route
      ? Promise.resolve(route.serve({ method, headers: request.headers, mcpPath: '' }))
      : Promise.resolve<RouteReply>({ status: 404, body: 'Not Found\n' });
    replying.then(
      (reply) => {
        response.writeHead(reply.status, { ...reply.headers });
        response.end(reply.body);
      },
      () => {
        response.writeHead(500);
        response.end();
      },
    );
  });
  const listening = await listenOn(server, options.port ?? 0, host);
  return {
    url: `http://${listening.urlHost}:${listening.port}`,
    port: listening.port,
    close: () => listening.close(),
  };
}
