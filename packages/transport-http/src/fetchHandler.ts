import type { Endpoint } from '@rondo/core';
import type { BodySource, HttpRequest } from './edge.js';
import { readFetchMessage } from './fetchBody.js';
import { lazyHeaders, pathOfUrl } from './fetchRequest.js';
import { FetchResponder } from './fetchResponder.js';
import type { HttpTransportOptions } from './options.js';
import { reject } from './reply.js';
import { createMcpService, normalisePath } from './service.js';

/** What a server knows about the connection a request came on, beyond the `Request` itself. */
export interface FetchConnectionInfo {
  /**
   * The local address the connection arrived on. Known, it lets the Host guard's default refuse
   * non-loopback hosts on a loopback connection, as the node handler does.
   */
  localAddress?: string | undefined;
  /**
   * The address of the peer the connection comes from. Known, it tells anonymous clients apart for
   * the per-client caps (`maxStreamsPerClient`, `maxSessionsPerClient`); unknown, they share one.
   */
  remoteAddress?: string | undefined;
  /**
   * Keeps the runtime alive until a promise settles, for work that outlives the response: a
   * background run an extension started, a request whose SSE stream closed for polling. On Cloudflare Workers pass
   * `ctx.waitUntil.bind(ctx)`, as a Worker stops a request's pending work once its response is
   * done; runtimes whose process runs on (Node, Deno, Bun) need none.
   */
  waitUntil?: ((work: Promise<unknown>) => void) | undefined;
}

/** A web-standard handler serving an MCP endpoint: a `Request` in, a `Response` out. */
export interface FetchHandler {
  (request: Request, connection?: FetchConnectionInfo): Promise<Response>;
  /** Closes every session and open response. The endpoint itself stays open. */
  close(): Promise<void>;
  /** How many sessions are live. */
  readonly sessionCount: number;
}

/**
 * A fetch handler for an MCP endpoint over Streamable HTTP, for any runtime with web `Request` and
 * `Response` (Cloudflare Workers, Deno, Bun, Node, Hono): the same transport as
 * `createHttpHandler`, both eras, sessions and SSE streams (as `ReadableStream` bodies). It serves
 * `options.path` (default `/mcp`) and, with `options.auth`, the Protected Resource Metadata; other
 * paths get 404.
 */
export function createFetchHandler(
  endpoint: Endpoint,
  options?: HttpTransportOptions,
): FetchHandler {
  const service = createMcpService(endpoint, options);
  let ready: Promise<void> | undefined;
  const handler = async (request: Request, connection?: FetchConnectionInfo): Promise<Response> => {
    // Started on the first request: a Worker may do no I/O while its module loads.
    await (ready ??= endpoint.ready());
    const pathname = normalisePath(pathOfUrl(request.url));
    // A Worker's signal is watched at once (see `watchAbort`); it is the runtime given `waitUntil`.
    const res = new FetchResponder(request, connection?.waitUntil !== undefined);
    if (pathname === service.options.path) {
      service.serveMcp(requestView(request, connection), res, bodyOf(request, res));
    } else if (service.serveWellKnown(pathname, request.method, res)) {
      // The Protected Resource Metadata.
    } else if (!service.serveRoute(pathname, requestView(request, connection), res)) {
      reject(res, 404, `Not Found: ${pathname}`);
    }
    return res.response;
  };
  return Object.defineProperties(handler, {
    close: { value: () => service.close() },
    sessionCount: { get: () => service.sessionCount },
  }) as FetchHandler;
}

/**
 * The request as the shared code reads it: lower-case headers, read from the `Request` as they
 * are asked for (see `lazyHeaders`), and a Host from the URL if absent.
 */
function requestView(request: Request, connection: FetchConnectionInfo | undefined): HttpRequest {
  return {
    method: request.method,
    headers: lazyHeaders(request.headers, request.url),
    socket: connection,
    waitUntil: connection?.waitUntil,
  };
}

/** The body reader; a body that cannot be read abandons the response (the client is gone). */
function bodyOf(request: Request, res: FetchResponder): BodySource {
  return async (limit) => {
    const outcome = await readFetchMessage(request, limit);
    if (outcome === 'aborted') res.abandon();
    return outcome;
  };
}
