import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Endpoint } from '@rondo/core';
import { attachWebSocket } from './attach.js';
import type { WebSocketStats } from './stats.js';
import { DEFAULT_HOST, DEFAULT_PATH, MCP_SUBPROTOCOL, type WebSocketOptions } from './options.js';

/** Where a standalone WebSocket server listens. */
export interface ServeOptions extends WebSocketOptions {
  /** Default `127.0.0.1`: reachable from this machine only. */
  host?: string;
  /** Default 0: an ephemeral port, read it from the handle. */
  port?: number;
}

/** A running standalone WebSocket server. */
export interface WebSocketServerHandle {
  /** The `ws://` URL clients connect to, path included. */
  readonly url: string;
  /** The port actually bound. */
  readonly port: number;
  /** Open sockets. */
  readonly connections: number;
  /** Requests being handled over all sockets. */
  readonly inFlight: number;
  /** See {@link WebSocketStats}. */
  stats(): WebSocketStats;
  /** Closes every socket and stops listening. The endpoint is left open. */
  close(): Promise<void>;
}

/**
 * Serves an endpoint over WebSocket on its own port (default `ws://127.0.0.1:<port>/ws`). Plain
 * HTTP requests are answered 426 with a sentence naming the path and subprotocol.
 */
export async function serveWebSocket(
  endpoint: Endpoint,
  options: ServeOptions = {},
): Promise<WebSocketServerHandle> {
  await endpoint.ready();
  const path = options.path ?? DEFAULT_PATH;
  const host = options.host ?? DEFAULT_HOST;
  const httpServer = createServer((_request, response) => {
    response.writeHead(426, { 'Content-Type': 'text/plain; charset=utf-8', Upgrade: 'websocket' });
    response.end(
      `This server speaks MCP over WebSocket (subprotocol "${MCP_SUBPROTOCOL}") at ${path}\n`,
    );
  });
  const attachment = attachWebSocket(endpoint, { ...options, httpServer });
  let port: number;
  try {
    port = await listen(httpServer, options.port ?? 0, host);
  } catch (failure) {
    await attachment.close();
    throw failure;
  }
  return {
    url: `ws://${host.includes(':') ? `[${host}]` : host}:${port}${path}`,
    port,
    get connections() {
      return attachment.connections;
    },
    get inFlight() {
      return attachment.inFlight;
    },
    stats: () => attachment.stats(),
    close: async () => {
      await attachment.close();
      await new Promise<void>((resolve) => {
        httpServer.close(() => resolve());
        httpServer.closeAllConnections();
      });
    },
  };
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}
