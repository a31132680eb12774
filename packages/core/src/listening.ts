/**
 * How a transport's standalone server treats its connections. The defaults bound what one slow or
 * idle client can hold; 0 turns a timeout off.
 */
export interface ConnectionLimits {
  /** Time to receive a request's headers; the socket is then closed (after a 408). Default 10 s. */
  headersTimeoutMs?: number;
  /** Time to receive a whole request, body included (not the response). Default 30 s. */
  requestTimeoutMs?: number;
  /** How long an idle keep-alive connection is kept between requests. Default 5 s. */
  keepAliveTimeoutMs?: number;
  /** Most open connections (sockets); past it, new ones are closed at once; 0 for no cap. Default 10,000. */
  maxConnections?: number;
}

/** The defaults of {@link ConnectionLimits}, as `docs/limits.md` lists them. */
export const CONNECTION_LIMIT_DEFAULTS = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5000,
  maxConnections: 10_000,
} as const;

/** Where a transport's standalone server listens, and how it treats its connections. */
export interface ListenOptions extends ConnectionLimits {
  /** The interface to bind. Default `127.0.0.1`: reachable from this machine only. */
  host?: string;
  /** The port; 0 (the default) picks a free one, read it from the handle. */
  port?: number;
}

/** A transport's standalone server, listening. */
export interface ListeningServer {
  /** The URL clients connect to, path included (`http://127.0.0.1:43817/mcp`, `ws://…/ws`). */
  readonly url: string;
  /** The port actually bound. */
  readonly port: number;
  /** Closes the transport's connections and stops listening. The endpoint stays open. */
  close(): Promise<void>;
}
