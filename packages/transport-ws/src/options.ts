import { ConfigurationError } from '@rondo/core';

/** The subprotocol a client must offer in `Sec-WebSocket-Protocol`. */
export const MCP_SUBPROTOCOL = 'mcp';

/** The path WebSocket upgrades are served on unless told otherwise. */
export const DEFAULT_PATH = '/ws';

/** The address a standalone server binds unless told otherwise: loopback only. */
export const DEFAULT_HOST = '127.0.0.1';

/** Settings every WebSocket entry point shares. */
export interface WebSocketOptions {
  /** The request path upgrades are accepted on; default `/ws`. */
  path?: string;
  /**
   * Origins a browser page may connect from, as `scheme://host[:port]`, or `'*'` for any. A request
   * without an Origin header (a non-browser client) is always allowed; a request whose Origin names
   * the same host as its Host header is allowed too.
   */
  allowedOrigins?: readonly string[];
  /**
   * Host header values accepted (hostname or hostname:port). By default a connection that arrived on
   * a loopback address must name a loopback host (the DNS-rebinding guard); others are not checked.
   */
  allowedHosts?: readonly string[];
  /** The largest inbound frame in bytes; a larger one closes the socket with 1009. Default 4 MiB. */
  maxFrameBytes?: number;
  /** Keep-alive pings; `false` turns them off. */
  keepAlive?: KeepAliveOptions | false;
  /** Limits on bytes queued for a peer that reads slowly. */
  backpressure?: BackpressureOptions;
}

/** Keep-alive: ping every `intervalMs`; a peer that has not answered within `timeoutMs` is dropped. */
export interface KeepAliveOptions {
  /** Default 30 s. */
  intervalMs?: number;
  /** Default 10 s. */
  timeoutMs?: number;
}

/** Backpressure limits for one connection's outbound queue. */
export interface BackpressureOptions {
  /** Stop reading the peer's frames while more than this many bytes wait to be sent. Default 1 MiB. */
  pauseAboveBytes?: number;
  /** Drop the connection when more than this many bytes wait to be sent. Default 16 MiB. */
  closeAboveBytes?: number;
}

/** {@link WebSocketOptions} with every default filled in. */
export interface ResolvedOptions {
  path: string;
  allowedOrigins: readonly string[];
  allowedHosts: readonly string[] | undefined;
  maxFrameBytes: number;
  keepAlive: Required<KeepAliveOptions> | false;
  backpressure: Required<BackpressureOptions>;
}

const MIB = 1024 * 1024;

/** Fills in the defaults and refuses settings that cannot work. */
export function resolveOptions(options: WebSocketOptions): ResolvedOptions {
  const pauseAboveBytes = options.backpressure?.pauseAboveBytes ?? MIB;
  const closeAboveBytes = options.backpressure?.closeAboveBytes ?? 16 * MIB;
  if (closeAboveBytes < pauseAboveBytes) {
    throw new ConfigurationError(
      'backpressure.closeAboveBytes must not be below backpressure.pauseAboveBytes',
    );
  }
  const path = options.path ?? DEFAULT_PATH;
  if (!path.startsWith('/')) throw new ConfigurationError(`path must start with "/": ${path}`);
  return {
    path,
    allowedOrigins: options.allowedOrigins ?? [],
    allowedHosts: options.allowedHosts,
    maxFrameBytes: options.maxFrameBytes ?? 4 * MIB,
    keepAlive:
      options.keepAlive === false
        ? false
        : {
            intervalMs: options.keepAlive?.intervalMs ?? 30_000,
            timeoutMs: options.keepAlive?.timeoutMs ?? 10_000,
          },
    backpressure: { pauseAboveBytes, closeAboveBytes },
  };
}
