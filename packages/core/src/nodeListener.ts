import { createServer, type IncomingMessage, type RequestListener, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { ConfigurationError } from './errors.js';
import { CONNECTION_LIMIT_DEFAULTS as DEFAULTS, type ConnectionLimits } from './listening.js';

/** How often node checks the header and request timeouts of later requests, at most. */
const CHECK_EVERY_MS = 250;

/** What node answers a request that timed out (its own sweep writes the same). */
const REQUEST_TIMEOUT_RESPONSE = 'HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n';

/**
 * A `node:http` server with the connection limits applied (defaults in {@link ConnectionLimits}).
 * What the standalone HTTP and WebSocket servers share.
 */
export function createLimitedServer(limits: ConnectionLimits, handler: RequestListener): Server {
  const requestTimeout = nonNegative(
    'requestTimeoutMs',
    limits.requestTimeoutMs ?? DEFAULTS.requestTimeoutMs,
  );
  const headersTimeout = nonNegative(
    'headersTimeoutMs',
    limits.headersTimeoutMs ??
      (requestTimeout > 0
        ? Math.min(DEFAULTS.headersTimeoutMs, requestTimeout)
        : DEFAULTS.headersTimeoutMs),
  );
  if (requestTimeout > 0 && headersTimeout > requestTimeout)
    throw new ConfigurationError('headersTimeoutMs must not exceed requestTimeoutMs');
  const timeouts = [headersTimeout, requestTimeout].filter((timeout) => timeout > 0);
  const server = createServer(
    {
      headersTimeout,
      requestTimeout,
      keepAliveTimeout: nonNegative(
        'keepAliveTimeoutMs',
        limits.keepAliveTimeoutMs ?? DEFAULTS.keepAliveTimeoutMs,
      ),
      // Node checks the header and request timeouts on this interval (30 s by default). A quarter
      // second leaves most of the promised second to a loaded event loop; the check is one walk
      // of the connection list, cheap even at the connection cap.
      connectionsCheckingInterval: Math.max(10, Math.min(CHECK_EVERY_MS, ...timeouts)),
    },
    handler,
  );
  const maxConnections = nonNegative(
    'maxConnections',
    limits.maxConnections ?? DEFAULTS.maxConnections,
  );
  if (maxConnections > 0) server.maxConnections = maxConnections;
  timeFirstRequests(server, headersTimeout, requestTimeout);
  return server;
}

/**
 * Times the first request of each connection with timers of its own, so its cut lands at its
 * deadline rather than at the next sweep. Node's sweep checks every connection on an interval and
 * cuts all the expired ones in one turn: a thousand slow connections meet their deadlines up to an
 * interval late, then wait for each other. A timer per connection fires at its own deadline, and
 * connections opened apart are cut apart. Later requests on a kept-alive connection are left to
 * node's sweep (it alone sees when their headers begin); a connection that sent one request in time
 * has shown it is not a slowloris.
 */
function timeFirstRequests(server: Server, headersTimeout: number, requestTimeout: number): void {
  if (headersTimeout === 0 && requestTimeout === 0) return;
  const headerTimers = new WeakMap<Socket, Deadline>();
  const opened = new WeakMap<Socket, number>();
  server.on('connection', (socket: Socket) => {
    const now = Date.now();
    opened.set(socket, now);
    const timer = timeOutAt(socket, now + (headersTimeout || requestTimeout));
    headerTimers.set(socket, timer);
    socket.once('close', () => clearTimeout(timer.current));
  });
  const headersDone = (socket: Socket): boolean => {
    const timer = headerTimers.get(socket);
    if (timer === undefined) return false;
    clearTimeout(timer.current);
    headerTimers.delete(socket);
    return true;
  };
  server.on('request', (req: IncomingMessage) => {
    const { socket } = req;
    if (!headersDone(socket) || requestTimeout === 0 || req.complete) return;
    const bodyTimer = timeOutAt(socket, (opened.get(socket) ?? Date.now()) + requestTimeout);
    const clear = (): void => clearTimeout(bodyTimer.current);
    req.once('end', clear);
    req.once('close', clear);
    socket.once('close', clear);
  });
}

/**
 * True once node handed the connection over as an upgrade (a WebSocket): it then drops the HTTP
 * parser it keeps on the socket, and what the socket does next has limits of its own. No `upgrade`
 * listener is added for this: a WebSocket transport attached to the server counts those listeners
 * to know whether it alone takes upgrades.
 */
function upgraded(socket: Socket): boolean {
  return (socket as Socket & { parser?: unknown }).parser === null;
}

/** A timer that may be re-armed: `current` is the one to clear. */
interface Deadline {
  current: ReturnType<typeof setTimeout>;
}

/**
 * Times `socket` out at `deadline` (epoch ms). Node starts a timer from the loop's cached clock,
 * which lags behind by however long the current turn has run (accepting a thousand connections,
 * say), so a timer may fire early: it is armed again for what is left.
 */
function timeOutAt(socket: Socket, deadline: number): Deadline {
  const timer: Deadline = { current: undefined as unknown as ReturnType<typeof setTimeout> };
  const arm = (): void => {
    const left = deadline - Date.now();
    if (left > 0) timer.current = setTimeout(arm, left);
    else timeOut(socket);
  };
  arm();
  return timer;
}

/** Answers 408 where nothing was answered yet, and closes the connection, as node's sweep does. */
function timeOut(socket: Socket): void {
  if (socket.destroyed || upgraded(socket)) return;
  if (socket.writable && socket.bytesWritten === 0) socket.write(REQUEST_TIMEOUT_RESPONSE);
  socket.destroy();
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
