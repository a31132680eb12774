import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import type { Endpoint, HostGuardOptions } from '@rondo/core';
import { mcpRouter } from '@rondo/transport-http';
import { attachWebSocket } from '@rondo/transport-ws';
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
  close(): Promise<void>;
}

export interface DemoHttpOptions {
  host: string;
  port: number;
  /** The folder of the bundled playground (index.html, app.js). */
  publicDir: string;
  /** The calls to serve at /traffic; without it those routes are absent. */
  traffic?: ServerTraffic;
  /** The Host / Origin guard of every route (/mcp, /ws, /traffic); default the transports' rule. */
  guard?: HostGuardOptions;
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
  const router = mcpRouter(endpoint, { path: '/mcp', ...guard });
  app.use(router);
  const traffic = options.traffic ? trafficRoutes(options.traffic, { guard }) : undefined;
  if (traffic) app.use(traffic.router);
  app.use(express.static(options.publicDir, { index: 'index.html' }));

  const httpServer = createHttpServer(app);
  const sockets = attachWebSocket(endpoint, { httpServer, path: '/ws', ...guard });
  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(options.port, options.host, () => resolve());
  });
  const { port } = httpServer.address() as AddressInfo;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    httpServer,
    url: `http://${host}:${port}`,
    close: async () => {
      traffic?.close();
      await Promise.all([sockets.close(), router.close()]);
      // Long-lived streams (subscriptions/listen, legacy GET) would keep close() waiting forever.
      httpServer.closeAllConnections();
      await new Promise<void>((resolve) => httpServer.close(() => resolve()));
    },
  };
}
