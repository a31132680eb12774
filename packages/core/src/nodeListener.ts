import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ConfigurationError } from './errors.js';
import type { ConnectionLimits } from './listening.js';

/** How often the header and request timeouts are checked, at most. */
const CHECK_EVERY_MS = 250;

/**
 * A `node:http` server with the connection limits applied (defaults in {@link ConnectionLimits}).
 * What the standalone HTTP and WebSocket servers share.
 */
export function createLimitedServer(limits: ConnectionLimits, handler: RequestListener): Server {
  const requestTimeout = nonNegative('requestTimeoutMs', limits.requestTimeoutMs ?? 30_000);
  const headersTimeout = nonNegative(
    'headersTimeoutMs',
    limits.headersTimeoutMs ?? (requestTimeout > 0 ? Math.min(10_000, requestTimeout) : 10_000),
  );
  if (requestTimeout > 0 && headersTimeout > requestTimeout)
    throw new ConfigurationError('headersTimeoutMs must not exceed requestTimeoutMs');
  const timeouts = [headersTimeout, requestTimeout].filter((timeout) => timeout > 0);
  const server = createServer(
    {
      headersTimeout,
      requestTimeout,
      keepAliveTimeout: nonNegative('keepAliveTimeoutMs', limits.keepAliveTimeoutMs ?? 5000),
      // Node checks the header and request timeouts on this interval (30 s by default). A quarter
      // second leaves most of the promised second to a loaded event loop; the check is one walk
      // of the connection list, cheap even at the connection cap.
      connectionsCheckingInterval: Math.max(10, Math.min(CHECK_EVERY_MS, ...timeouts)),
    },
    handler,
  );
  const maxConnections = nonNegative('maxConnections', limits.maxConnections ?? 10_000);
  if (maxConnections > 0) server.maxConnections = maxConnections;
  return server;
}

function nonNegative(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 0)
    throw new ConfigurationError(`${name} must be a non-negative integer, got ${value}`);
  return value;
}

/** A `node:http` server that is listening. */
export interface Listening {
  /** The port actually bound (useful when 0 was asked for). */
  readonly port: number;
  /** The host as it goes in a URL: an IPv6 address in brackets. */
  readonly urlHost: string;
  /** Stops listening and cuts the connections still open. */
  close(): Promise<void>;
}

/**
 * Starts `server` listening on `host:port` (0 picks a free port); rejects with the listen error
 * (say, `EADDRINUSE`). What the standalone HTTP and WebSocket servers share.
 */
export function listenOn(server: Server, port: number, host: string): Promise<Listening> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve({
        port: (server.address() as AddressInfo).port,
        urlHost: host.includes(':') ? `[${host}]` : host,
        close: () =>
          new Promise<void>((closed) => {
            server.close(() => closed());
            server.closeAllConnections();
          }),
      });
    });
  });
}
