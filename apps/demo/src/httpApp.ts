import type { Server } from 'node:http';
import { isIP, type AddressInfo } from 'node:net';
import express from 'express';
import type {
  ConnectionLimits,
  Endpoint,
  HostGuardOptions,
  OAuthResourceOptions,
} from '@rondo/core';
import { createLimitedServer } from '@rondo/core/node';
import { mcpRouter } from '@rondo/server/express';
import { attachWebSocket } from '@rondo/server/ws';
import { APP_SANDBOX_PATH, serveAppSandbox } from './appSandbox.js';
import type { ServerTraffic } from './serverTraffic.js';
import { trafficRoutes } from './trafficRoutes.js';

/**
 * A running demo web server: MCP over HTTP at /mcp, WebSocket at /ws, the playground at /, and
 * what the server saw at /traffic (JSON) and /traffic/stream (server-sent events).
 */
export interface DemoHttpServer {
  httpServer: Server;
  /** The base URL, e.g. `http://127.0.0.1:8080`. */
  url: string;
  /** Whether /traffic and /traffic/stream are served. */
  traffic: boolean;
  close(): Promise<void>;
}

export interface DemoHttpOptions {
  host: string;
  port: number;
  /** The folder of the bundled playground (index.html, app.js). */
  publicDir: string;
  /** The calls to serve at /traffic; without it those routes are absent. */
  traffic?: ServerTraffic;
  /**
   * Whether to serve `traffic` at all: it shows every client's calls to whoever asks, so by
   * default only when `host` is a loopback address (the demo on one's own machine).
   */
  showTraffic?: boolean;
  /** serveHttp's connection limits (header, request, keep-alive timeouts, a connection cap). */
  limits?: ConnectionLimits;
  /** The Host / Origin guard of every route (/mcp, /ws, /traffic); default the transports' rule. */
  guard?: HostGuardOptions;
  /** Behind a reverse proxy, the header it sets to the client's address (`clientAddressHeader`). */
  clientAddressHeader?: string;
  /** The OAuth resource server of /mcp and /ws (a bearer token on every request); default none. */
  auth?: OAuthResourceOptions;
}

/**
 * Serves one endpoint three ways on one port. The MCP router comes before the static files and no
 * body parser is installed, because the transport reads the raw body itself (size cap, -32700).
 */
export async function startDemoHttp(
  endpoint: Endpoint,
  options: DemoHttpOptions,
): Promise<DemoHttpServer> {
  const app = express();
  app.disable('x-powered-by');
  const guard = options.guard ?? {};
  const proxied = options.clientAddressHeader
    ? { clientAddressHeader: options.clientAddressHeader }
    : {};
  const auth = options.auth ? { auth: options.auth } : {};
  const router = mcpRouter(endpoint, { path: '/mcp', ...guard, ...proxied, ...auth });
  app.use(router);
  const showTraffic = options.showTraffic ?? isLoopback(options.host);
  const traffic =
    options.traffic && showTraffic
      ? trafficRoutes(options.traffic, { guard, ...proxied })
      : undefined;
  if (traffic) app.use(traffic.router);
  app.get(APP_SANDBOX_PATH, serveAppSandbox);
  app.use(express.static(options.publicDir, { index: 'index.html' }));

  // The same limits as serveHttp, so a slow or idle client is cut here as it is there.
  const httpServer = createLimitedServer(options.limits ?? {}, app);
  const sockets = attachWebSocket(endpoint, {
    httpServer,
    path: '/ws',
    ...guard,
    ...proxied,
    ...auth,
  });
  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(options.port, options.host, () => resolve());
  });
  const { port } = httpServer.address() as AddressInfo;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    httpServer,
    url: `http://${host}:${port}`,
    traffic: traffic !== undefined,
    close: async () => {
      traffic?.close();
      await Promise.all([sockets.close(), router.close()]);
      // Long-lived streams (subscriptions/listen, legacy GET) would keep close() waiting forever.
      httpServer.closeAllConnections();
      await new Promise<void>((resolve) => httpServer.close(() => resolve()));
    },
  };
}

/** A host only this machine reaches: `localhost`, 127.0.0.0/8, `::1`. */
export function isLoopback(host: string): boolean {
  if (host === 'localhost') return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1' || host === '[::1]';
}
