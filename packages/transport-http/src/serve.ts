import type { Endpoint, ListenOptions, ListeningServer } from '@rondo/core';
import { createLimitedServer, listenOn } from '@rondo/core/node';
import { createHttpHandler } from './handler.js';
import type { HttpTransportOptions } from './options.js';

/**
 * Where and how {@link serveHttp} listens: the transport's options, the address and the connection
 * limits (header, request and keep-alive timeouts, a connection cap; see `ConnectionLimits` in
 * `@rondo/core`).
 */
export interface ServeHttpOptions extends HttpTransportOptions, ListenOptions {}

/**
 * A running HTTP server: `url` is the MCP endpoint's (`http://127.0.0.1:43817/mcp`); `close()`
 * closes sessions and connections, then stops listening. The endpoint stays open.
 */
export type HttpServerHandle = ListeningServer;

/** Serves an endpoint over Streamable HTTP on its own `node:http` server. */
export async function serveHttp(
  endpoint: Endpoint,
  options: ServeHttpOptions = {},
): Promise<HttpServerHandle> {
  await endpoint.ready();
  const host = options.host ?? '127.0.0.1';
  const handler = createHttpHandler(onlyHere(endpoint, host), options);
  const listening = await listenOn(createLimitedServer(options, handler), options.port ?? 0, host);
  return {
    url: `http://${listening.urlHost}:${listening.port}${options.path ?? '/mcp'}`,
    port: listening.port,
    async close() {
      await handler.close();
      await listening.close();
    },
  };
}

/** `127.0.0.1`, `::1`, `localhost`: an address only this machine reaches. */
const LOOPBACK = /^(127(\.\d{1,3}){3}|::1|\[::1\]|localhost)$/i;

/**
 * A server bound to loopback is a local one (a dev server, a desktop helper): no balancer sends
 * its clients to another process, so settings that hold only within one process (a random
 * requestState key) are not worth a warning. Anywhere else the endpoint is handed on as it is.
 */
function onlyHere(endpoint: Endpoint, host: string): Endpoint {
  if (!LOOPBACK.test(host) || endpoint.servedOverNetwork === undefined) return endpoint;
  return Object.create(endpoint, { servedOverNetwork: { value: undefined } }) as Endpoint;
}
