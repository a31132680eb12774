import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve as serveNodeFetch } from '@hono/node-server';
import Fastify from 'fastify';
import { Hono } from 'hono';
import type { Endpoint } from '@rondo/core';
import {
  createFetchHandler,
  serveHttp as serveNodeHandler,
  type HttpServerHandle,
  type ServeHttpOptions,
} from '@rondo/transport-http';
import { mcpFastify } from '@rondo/transport-http/fastify';
import { mcpHono } from '@rondo/transport-http/hono';

/**
 * The edge the HTTP test table runs against, from `RONDO_HTTP_EDGE` (each vitest project of
 * transport-http sets one): the node handler (`serveHttp`), the fetch handler on Node, the Hono
 * middleware or the Fastify plugin. Each serves `/mcp` on 127.0.0.1 on a free port.
 */
export const EDGE = process.env.RONDO_HTTP_EDGE ?? 'node';

/** `serveHttp`'s contract, over the edge under test. */
export async function serveHttp(
  endpoint: Endpoint,
  options: ServeHttpOptions = {},
): Promise<HttpServerHandle> {
  switch (EDGE) {
    case 'node':
      return serveNodeHandler(endpoint, options);
    case 'fetch':
      return serveFetch(endpoint, options);
    case 'hono':
      return serveHono(endpoint, options);
    case 'fastify':
      return serveFastify(endpoint, options);
    default:
      throw new Error(`Unknown RONDO_HTTP_EDGE ${EDGE}`);
  }
}

async function serveFetch(
  endpoint: Endpoint,
  options: ServeHttpOptions,
): Promise<HttpServerHandle> {
  await endpoint.ready();
  const handler = createFetchHandler(endpoint, options);
  const server = await listen(
    (port) =>
      serveNodeFetch({
        port,
        hostname: '127.0.0.1',
        fetch: (
          request,
          env: { incoming: { socket: { localAddress?: string; remoteAddress?: string } } },
        ) =>
          handler(request, {
            localAddress: env.incoming.socket.localAddress,
            remoteAddress: env.incoming.socket.remoteAddress,
          }),
      }) as Server,
  );
  return handle(server, options, () => handler.close());
}

async function serveHono(endpoint: Endpoint, options: ServeHttpOptions): Promise<HttpServerHandle> {
  await endpoint.ready();
  const app = new Hono();
  const mcp = mcpHono(endpoint, options);
  app.use(mcp);
  app.get('/', (c) => c.text('an app route'));
  const server = await listen(
    (port) => serveNodeFetch({ port, hostname: '127.0.0.1', fetch: app.fetch }) as Server,
  );
  return handle(server, options, () => mcp.close());
}

async function serveFastify(
  endpoint: Endpoint,
  options: ServeHttpOptions,
): Promise<HttpServerHandle> {
  await endpoint.ready();
  const app = Fastify();
  await app.register(mcpFastify, { ...options, endpoint });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}${options.path ?? '/mcp'}`,
    port,
    async close() {
      app.server.closeAllConnections();
      await app.close();
    },
  };
}

async function listen(start: (port: number) => Server): Promise<Server> {
  const server = start(0);
  if (!server.listening) await new Promise((resolve) => server.once('listening', resolve));
  return server;
}

function handle(
  server: Server,
  options: ServeHttpOptions,
  closeTransport: () => Promise<void>,
): HttpServerHandle {
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}${options.path ?? '/mcp'}`,
    port,
    async close() {
      await closeTransport();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
