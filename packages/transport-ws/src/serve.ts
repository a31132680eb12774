import {
  isMetadataPath,
  metadataDocument,
  type Endpoint,
  type ListenOptions,
  type ListeningServer,
} from '@rondo/core';
import { createLimitedServer, listenOn, type Listening } from '@rondo/core/node';
import { attachWebSocket } from './attach.js';
import type { WebSocketStats } from './stats.js';
import { DEFAULT_HOST, DEFAULT_PATH, MCP_SUBPROTOCOL, type WebSocketOptions } from './options.js';

/**
 * Where a standalone WebSocket server listens, and its connection limits (see `ConnectionLimits`
 * in `@rondo/core`): the header timeout bounds the upgrade request, the cap counts sockets.
 */
export interface ServeOptions extends WebSocketOptions, ListenOptions {}

/**
 * A running standalone WebSocket server: `url` is the `ws://` URL clients connect to, path
 * included; `close()` closes every socket and stops listening. The endpoint is left open.
 */
export interface WebSocketServerHandle extends ListeningServer {
  /** Open sockets. */
  readonly connections: number;
  /** Requests being handled over all sockets. */
  readonly inFlight: number;
  /** See {@link WebSocketStats}. */
  stats(): WebSocketStats;
}

/**
 * Serves an endpoint over WebSocket on its own port (default `ws://127.0.0.1:<port>/ws`). Plain
 * HTTP requests are answered 426 with a sentence naming the path and subprotocol; with `auth`, a
 * GET of the Protected Resource Metadata path gets the metadata document.
 */
export async function serveWebSocket(
  endpoint: Endpoint,
  options: ServeOptions = {},
): Promise<WebSocketServerHandle> {
  await endpoint.ready();
  const path = options.path ?? DEFAULT_PATH;
  const host = options.host ?? DEFAULT_HOST;
  const auth = options.auth;
  const httpServer = createLimitedServer(options, (request, response) => {
    const pathname = (request.url ?? '/').split('?')[0] ?? '/';
    const metadata = auth !== undefined && isMetadataPath(pathname, auth, path);
    if (metadata && request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { 'Content-Type': 'text/plain; charset=utf-8', Allow: 'GET, HEAD' });
      response.end(`Method Not Allowed: ${request.method ?? ''}\n`);
      return;
    }
    if (metadata && auth !== undefined) {
      // Where the 401's challenge points the client for the authorization servers.
      response.writeHead(200, {
        'Content-Type': 'application/json',
        'Cache-Control': 'public, max-age=3600',
      });
      response.end(metadataDocument(auth));
      return;
    }
    response.writeHead(426, { 'Content-Type': 'text/plain; charset=utf-8', Upgrade: 'websocket' });
    response.end(
      `This server speaks MCP over WebSocket (subprotocol "${MCP_SUBPROTOCOL}") at ${path}\n`,
    );
  });
  const attachment = attachWebSocket(endpoint, { ...options, httpServer });
  let listening: Listening;
  try {
    listening = await listenOn(httpServer, options.port ?? 0, host);
  } catch (failure) {
    await attachment.close();
    throw failure;
  }
  return {
    url: `ws://${listening.urlHost}:${listening.port}${path}`,
    port: listening.port,
    get connections() {
      return attachment.connections;
    },
    get inFlight() {
      return attachment.inFlight;
    },
    stats: () => attachment.stats(),
    close: async () => {
      await attachment.close();
      await listening.close();
    },
  };
}
