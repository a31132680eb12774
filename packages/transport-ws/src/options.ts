import {
  checkIpv6Prefix,
  ConfigurationError,
  resolveHostGuard,
  type OAuthResourceOptions,
  type HostGuardOptions,
  type HostGuardPolicy,
} from '@rondo/core';

/** The subprotocol a client must offer in `Sec-WebSocket-Protocol`. */
export const MCP_SUBPROTOCOL = 'mcp';

/** The path WebSocket upgrades are served on unless told otherwise. */
export const DEFAULT_PATH = '/ws';

/** The address a standalone server binds unless told otherwise: loopback only. */
export const DEFAULT_HOST = '127.0.0.1';

/**
 * Settings every WebSocket entry point shares. `allowedHosts` and `allowedOrigins` are the Host /
 * Origin guard's, shared with the HTTP transport (see {@link HostGuardOptions}).
 */
export interface WebSocketOptions extends HostGuardOptions {
  /** The request path upgrades are accepted on; default `/ws`. */
  path?: string;
  /** The largest inbound frame in bytes; a larger one closes the socket with 1009. Default 4 MiB. */
  maxFrameBytes?: number;
  /** Keep-alive pings; `false` turns them off. */
  keepAlive?: KeepAliveOptions | false;
  /** Limits on bytes queued for a peer that reads slowly. */
  backpressure?: BackpressureOptions;
  /**
   * OAuth 2.1 resource server, as on the HTTP transport: the upgrade request must carry an
   * `Authorization: Bearer` token that `verifyToken` accepts with every `requiredScopes` scope
   * (401 or 403 with `WWW-Authenticate` otherwise), and every call on the socket runs as the
   * token's principal. The socket is closed (1008) when the token expires.
   */
  auth?: OAuthResourceOptions;
  /**
   * The header a reverse proxy sets to the client's address (`x-real-ip`, or `x-forwarded-for`,
   * whose last entry is taken), as on the HTTP transport. Without a principal, a socket's client is
   * that address, else the socket's peer address: the key of the fair shares its calls draw on
   * (`maxTasksPerOwner`). Set it only when a proxy sets the header on every upgrade.
   */
  clientAddressHeader?: string;
  /**
   * How many leading bits of an IPv6 address make one client for the fair shares, as on the HTTP
   * transport: default 64 (a subscriber's whole /64); 128 counts each address alone.
   */
  ipv6ClientPrefix?: number;
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
  guard: HostGuardPolicy;
  maxFrameBytes: number;
  keepAlive: Required<KeepAliveOptions> | false;
  backpressure: Required<BackpressureOptions>;
  auth: OAuthResourceOptions | undefined;
  clientAddressHeader: string | undefined;
  ipv6ClientPrefix: number;
}

const MIB = 1024 * 1024;

/** The defaults of {@link WebSocketOptions}' limits, as `docs/limits.md` lists them. */
export const WEBSOCKET_DEFAULTS = {
  maxFrameBytes: 4 * MIB,
  pauseAboveBytes: MIB,
  closeAboveBytes: 16 * MIB,
  keepAliveIntervalMs: 30_000,
  keepAliveTimeoutMs: 10_000,
} as const;

/** Fills in the defaults and refuses settings that cannot work. */
export function resolveOptions(options: WebSocketOptions): ResolvedOptions {
  const pauseAboveBytes =
    options.backpressure?.pauseAboveBytes ?? WEBSOCKET_DEFAULTS.pauseAboveBytes;
  const closeAboveBytes =
    options.backpressure?.closeAboveBytes ?? WEBSOCKET_DEFAULTS.closeAboveBytes;
  if (closeAboveBytes < pauseAboveBytes) {
    throw new ConfigurationError(
      'backpressure.closeAboveBytes must not be below backpressure.pauseAboveBytes',
    );
  }
  const path = options.path ?? DEFAULT_PATH;
  if (!path.startsWith('/')) throw new ConfigurationError(`path must start with "/": ${path}`);
  return {
    path,
    guard: resolveHostGuard(options),
    maxFrameBytes: options.maxFrameBytes ?? WEBSOCKET_DEFAULTS.maxFrameBytes,
    keepAlive:
      options.keepAlive === false
        ? false
        : {
            intervalMs: options.keepAlive?.intervalMs ?? WEBSOCKET_DEFAULTS.keepAliveIntervalMs,
            timeoutMs: options.keepAlive?.timeoutMs ?? WEBSOCKET_DEFAULTS.keepAliveTimeoutMs,
          },
    backpressure: { pauseAboveBytes, closeAboveBytes },
    auth: options.auth,
    clientAddressHeader: options.clientAddressHeader?.toLowerCase(),
    ipv6ClientPrefix: checkIpv6Prefix(options.ipv6ClientPrefix, 'ipv6ClientPrefix'),
  };
}

/** Close code for a frame type this transport does not accept (RFC 6455: unsupported data). */
export const CLOSE_UNSUPPORTED_DATA = 1003;

/** Close code for a socket whose access token expired (RFC 6455: policy violation). */
export const CLOSE_POLICY_VIOLATION = 1008;
