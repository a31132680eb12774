import type { IncomingMessage, Server as HttpServer } from 'node:http';
import type { Server as HttpsServer } from 'node:https';
import type { Duplex } from 'node:stream';
import {
  clientAddress,
  clientKeyOfAddress,
  ConfigurationError,
  type Endpoint,
  type OAuthResourceOptions,
} from '@rondo/core';
import { WebSocketServer } from 'ws';
import {
  authorizeUpgrade,
  isForPath,
  refuseHandshake,
  writeRefusal,
  type Access,
} from './handshake.js';
import { MCP_SUBPROTOCOL, resolveOptions, type WebSocketOptions } from './options.js';
import { SocketSession } from './socketSession.js';
import { totals, type WebSocketStats } from './stats.js';

/** Where {@link attachWebSocket} takes its upgrades from: exactly one of the two. */
export interface AttachOptions extends WebSocketOptions {
  /** A server (say, the one an express app listens on) whose upgrades on `path` this transport takes. */
  httpServer?: HttpServer | HttpsServer;
  /** The caller routes upgrades itself and passes them to {@link WebSocketAttachment.handleUpgrade}. */
  noServer?: boolean;
}

/** A WebSocket transport attached to an HTTP server or to a caller's upgrade routing. */
export interface WebSocketAttachment {
  /**
   * Takes one upgrade request. Returns false, leaving the socket untouched, when the request is for
   * another path; otherwise the upgrade is completed or refused with an HTTP error.
   */
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): boolean;
  /** Open sockets. */
  readonly connections: number;
  /** Requests being handled over all sockets. */
  readonly inFlight: number;
  /** See {@link WebSocketStats}. */
  stats(): WebSocketStats;
  /** Stops taking upgrades and closes every socket (1001), cutting those that do not close within a second. */
  close(): Promise<void>;
}

const CLOSE_GOING_AWAY = 1001;

/**
 * Lets a checked upgrade through: at once without `auth`; with it, once its bearer token is
 * verified, or answered with the refusal (401, 403) instead.
 */
function admit(
  request: IncomingMessage,
  socket: Duplex,
  auth: OAuthResourceOptions | undefined,
  accept: (access?: Access) => void,
): void {
  if (!auth) return accept();
  authorizeUpgrade(request, auth).then(
    (outcome) => {
      if (socket.destroyed) return;
      if ('status' in outcome) writeRefusal(socket, outcome);
      else accept(outcome);
    },
    () => writeRefusal(socket, { status: 500, reason: 'The token could not be checked' }),
  );
}
const CLOSE_GRACE_MS = 1000;

/**
 * Serves an endpoint over WebSocket on a port something else owns: pass the `httpServer` an express
 * app or `http.createServer` listens on, or `noServer: true` and hand upgrades over yourself. The
 * endpoint is not closed with the attachment; call `endpoint.ready()` first to load its providers.
 */
export function attachWebSocket(endpoint: Endpoint, options: AttachOptions): WebSocketAttachment {
  if (Boolean(options.httpServer) === Boolean(options.noServer)) {
    throw new ConfigurationError(
      'attachWebSocket needs exactly one of httpServer or noServer: true',
    );
  }
  const resolved = resolveOptions(options);
  endpoint.servedOverNetwork?.();
  const sockets = new WebSocketServer({
    noServer: true,
    maxPayload: resolved.maxFrameBytes,
    perMessageDeflate: false,
    clientTracking: false,
    handleProtocols: (offered) => (offered.has(MCP_SUBPROTOCOL) ? MCP_SUBPROTOCOL : false),
  });
  const sessions = new Set<SocketSession>();
  let closing = false;

  const accept = (request: IncomingMessage, socket: Duplex, head: Buffer, access?: Access) => {
    sockets.handleUpgrade(request, socket, head, (webSocket) => {
      if (closing) return webSocket.close(CLOSE_GOING_AWAY, 'The server is shutting down');
      const done = (session: SocketSession): boolean => sessions.delete(session);
      const client = clientOf(request, resolved.clientAddressHeader, resolved.ipv6ClientPrefix);
      sessions.add(new SocketSession(webSocket, endpoint, resolved, done, { access, client }));
    });
  };
  const handleUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer): boolean => {
    if (!isForPath(request, resolved.path)) return false;
    const refusal = closing
      ? { status: 503, reason: 'The server is shutting down' }
      : refuseHandshake(request, resolved);
    if (refusal) writeRefusal(socket, refusal);
    else admit(request, socket, resolved.auth, (access) => accept(request, socket, head, access));
    return true;
  };

  const server = options.httpServer;
  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer): void => {
    if (handleUpgrade(request, socket, head)) return;
    // Other paths belong to other upgrade listeners; when there are none, say so instead of hanging.
    if (server?.listenerCount('upgrade') === 1) {
      writeRefusal(socket, {
        status: 404,
        reason: `No WebSocket endpoint at this path; try ${resolved.path}`,
      });
    }
  };
  server?.on('upgrade', onUpgrade);

  return {
    handleUpgrade,
    get connections() {
      return sessions.size;
    },
    get inFlight() {
      return [...sessions].reduce((sum, session) => sum + session.stats().inFlight, 0);
    },
    stats: () => totals(sessions),
    close: async () => {
      closing = true;
      server?.off('upgrade', onUpgrade);
      const open = [...sessions];
      for (const session of open) session.close(CLOSE_GOING_AWAY, 'The server is shutting down');
      const grace = setTimeout(
        () => open.forEach((session) => session.terminate()),
        CLOSE_GRACE_MS,
      );
      await Promise.all(open.map((session) => session.closed));
      clearTimeout(grace);
      sockets.close();
    },
  };
}

/**
 * Who an upgrade comes from, for the fair shares of a socket without a principal: the proxy's
 * header when one is named (its last entry, the one the proxy added), the peer's address otherwise.
 * Every socket from one address is one client, as on the HTTP transport, so opening more sockets
 * gives no more share; an IPv6 address counts by its network of `ipv6ClientPrefix` bits.
 */
function clientOf(
  request: IncomingMessage,
  addressHeader: string | undefined,
  ipv6Prefix: number,
): string {
  const address = clientAddress(request.headers, request.socket.remoteAddress, addressHeader);
  return `address:${clientKeyOfAddress(address, ipv6Prefix)}`;
}
