import {
  ConfigurationError,
  type Endpoint,
  type ListeningServer,
  type RondoServer,
} from '@rondo/core';
import { runtimeOf } from '@rondo/core/internal';
import type { ServeHttpOptions } from '@rondo/transport-http';
import type { StdioOptions } from '@rondo/transport-stdio';
import type { ServeOptions as ServeWebSocketOptions } from '@rondo/transport-ws';
import { composeEndpoint, isEndpoint, type Servable, type ServeEras } from './eras.js';
import type { OperationsOptions } from './operations.js';
import type { RunningServer, Transport } from './runningServer.js';

export { TRANSPORTS, type RunningServer, type Transport } from './runningServer.js';

/** What {@link serve} accepts whatever the transport. */
export interface ServeCommonOptions {
  /**
   * The interface to bind (http, ws; default `127.0.0.1`). Ignored on stdio, so one command line
   * can carry it whatever the transport.
   */
  host?: string;
  /**
   * The port (http, ws). Default 0: a free one, which the printed line and `url` tell, so that two
   * servers (or tests) never collide; give a fixed one for a URL to put in a client's
   * configuration. Ignored on stdio.
   */
  port?: number;
  /** The URL path (http: default `/mcp`, ws: default `/ws`). Ignored on stdio. */
  path?: string;
  /**
   * Signals that stop the server (`close()`), each heard once; say `['SIGINT', 'SIGTERM']` in a
   * CLI. Default none: the caller decides how the process ends.
   */
  stopOnSignals?: readonly NodeJS.Signals[];
  /**
   * Leaves out the one line (http, ws) that tells on stderr where the server listens
   * (`rondo: serving greeter over http at http://127.0.0.1:3000/mcp`); for a program that prints
   * its own. Default false. Nothing is printed on stdio, whose stdout carries only protocol frames.
   */
  quiet?: boolean;
  /**
   * Serves the operator's endpoints (`/healthz`, `/readyz`, `/metrics`; see
   * `@rondo/server/operations`) beside the MCP endpoint (http, ws) and, with `adminPort`, on a
   * listener of their own on `host` (any transport: the only way on stdio). Default none.
   */
  operations?: OperationsOptions & { readonly adminPort?: number };
}

/**
 * The options of stdio: no `auth`, since a pipe carries no token (the process that spawned the
 * server is the one client); typed `never` so that passing it is a compile error.
 */
export type ServeStdioOptions = StdioOptions & { auth?: never };

/**
 * The options of {@link serve} for one transport: the common ones plus that transport's own. It
 * distributes over a union of transports, so options for a transport only known at run time are
 * checked against each one it may be (`auth` with a `Transport` that may be `'stdio'` does not
 * compile).
 */
export type ServeOnOptions<T extends Transport> = T extends Transport
  ? ServeCommonOptions & { transport: T } & {
        stdio: ServeStdioOptions;
        http: ServeHttpOptions;
        ws: ServeWebSocketOptions;
      }[T]
  : never;

/** The options of {@link serve}: `transport` picks the transport and the options it takes. */
export type ServeOptions = ServeOnOptions<'stdio'> | ServeOnOptions<'http'> | ServeOnOptions<'ws'>;

/** What {@link serve} accepts with a server rather than an endpoint: the eras to compose it with. */
export interface ServeServerOptions {
  /** Both eras by default; see {@link ServeEras}. */
  eras?: ServeEras;
}

/**
 * Serves a server on the transport `options.transport` names, once its providers are ready. A
 * {@link RondoServer} is composed with both eras (`options.eras` leaves one out or passes its
 * options) and closed with the transport; an {@link Endpoint} is served as it is and left open:
 * close it after `closed` resolves. The network transports are loaded only when asked for, so a
 * stdio server never loads `ws`.
 *
 * Over http and ws it prints where it listens, one line on stderr (`quiet: true` leaves it out).
 *
 * ```ts
 * const running = await serve(server, { transport: 'http', port: 8080 });
 * // stderr: rondo: serving greeter over http at http://127.0.0.1:8080/mcp
 * ```
 */
export function serve<T extends Transport>(
  server: RondoServer,
  options: ServeOnOptions<T> & ServeServerOptions,
): Promise<RunningServer<T>>;
export function serve<T extends Transport>(
  endpoint: Endpoint,
  options: ServeOnOptions<T>,
): Promise<RunningServer<T>>;
export async function serve<T extends Transport>(
  servable: Servable,
  options: ServeOnOptions<T> & ServeServerOptions,
): Promise<RunningServer<T>> {
  const { eras, quiet, operations, ...rest } = options;
  const owned = !isEndpoint(servable);
  if (!owned && eras)
    throw new ConfigurationError('serve: `eras` applies to a server; an endpoint has its eras');
  const composed = owned ? composeEndpoint(servable, eras) : servable;
  let started: RunningServer<T>;
  try {
    const ops = operations && (await import('./operationsServing.js'));
    const served = ops
      ? ops.withOperations(composed, operations)
      : { endpoint: composed, routes: [] };
    await served.endpoint.ready();
    // `options.transport` is `T`, so the server start() picks serves on `T`.
    started = (await start(served.endpoint, rest as ServeOptions)) as RunningServer<T>;
    if (ops && operations.adminPort !== undefined) {
      const { host, adminPort } = { host: options.host, adminPort: operations.adminPort };
      started = await ops.withAdminListener(started, served.routes, host, adminPort);
    }
  } catch (failure) {
    // Nobody else holds an endpoint composed here: its providers must not outlive the failure.
    if (owned) await composed.close();
    throw failure;
  }
  const running = owned ? closingToo(started, composed) : started;
  if (running.url !== undefined && quiet !== true) {
    const name = owned ? ` ${runtimeOf(servable).info.name}` : '';
    process.stderr.write(`rondo: serving${name} over ${running.transport} at ${running.url}\n`);
  }
  for (const signal of options.stopOnSignals ?? []) {
    // A failure to close reaches whoever awaits `closed`; the signal handler only starts it.
    const stop = (): void => void running.close().catch(() => undefined);
    const release = (): void => void process.off(signal, stop);
    process.once(signal, stop);
    void running.closed.then(release, release);
  }
  return running;
}

async function start(endpoint: Endpoint, options: ServeOptions): Promise<RunningServer> {
  switch (options.transport) {
    case 'stdio': {
      const { transport: _t, stopOnSignals: _s, host: _h, port: _p, path: _path, ...own } = options;
      // For callers the types do not reach (plain JavaScript, options read from a file).
      if ((own as { auth?: unknown }).auth !== undefined) {
        throw new ConfigurationError(
          'serve: `auth` needs a transport that carries a bearer token ("http" or "ws"); stdio has none',
        );
      }
      const { serveStdio } = await import('@rondo/transport-stdio');
      const server = serveStdio(endpoint, own);
      return {
        transport: 'stdio',
        url: undefined,
        closed: server.closed,
        close: () => server.close(),
      };
    }
    case 'http': {
      const { transport: _t, stopOnSignals: _s, ...own } = options;
      const { serveHttp } = await import('@rondo/transport-http');
      return untilClosed('http', await serveHttp(endpoint, own));
    }
    case 'ws': {
      const { transport: _t, stopOnSignals: _s, ...own } = options;
      const { serveWebSocket } = await import('@rondo/transport-ws');
      return untilClosed('ws', await serveWebSocket(endpoint, own));
    }
  }
}

/** A listening server seen as a {@link RunningServer}: `closed` resolves once it was closed. */
function untilClosed(transport: Transport, listening: ListeningServer): RunningServer {
  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));
  let closing: Promise<void> | undefined;
  return {
    transport,
    url: listening.url,
    closed,
    close: () => (closing ??= listening.close().finally(resolveClosed)),
  };
}

/** `running`, with `endpoint` closed once the transport has stopped, before `closed` resolves. */
function closingToo<T extends Transport>(
  running: RunningServer<T>,
  endpoint: Endpoint,
): RunningServer<T> {
  const closed = running.closed.then(() => endpoint.close());
  // Whoever awaits `closed` or `close()` sees a failure to close; nobody awaiting is not a crash.
  closed.catch(() => undefined);
  return {
    ...running,
    closed,
    close: async () => {
      await running.close();
      return closed;
    },
  };
}
