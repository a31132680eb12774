import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Endpoint } from '@rondo/core';
import { createHttpHandler } from './handler.js';
import type { HttpTransportOptions } from './options.js';

/** Where and how {@link serveHttp} listens. */
export interface ServeHttpOptions extends HttpTransportOptions {
  /** Interface to bind. Default `127.0.0.1`: reachable from this machine only. */
  host?: string;
  /** Port; 0 (the default) picks a free one. */
  port?: number;
}

/** A running HTTP server. */
export interface HttpServerHandle {
  /** The MCP endpoint's URL, e.g. `http://127.0.0.1:43817/mcp`. */
  url: string;
  port: number;
  /** Closes sessions and connections, then stops listening. The endpoint stays open. */
  close(): Promise<void>;
}

/** Serves an endpoint over Streamable HTTP on its own `node:http` server. */
export async function serveHttp(
  endpoint: Endpoint,
  options: ServeHttpOptions = {},
): Promise<HttpServerHandle> {
  await endpoint.ready();
  const host = options.host ?? '127.0.0.1';
  const handler = createHttpHandler(endpoint, options);
  const server = createServer(handler);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${urlHost}:${port}${options.path ?? '/mcp'}`,
    port,
    async close() {
      await handler.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
