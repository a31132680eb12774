import {
  checkIpv6Prefix,
  ConfigurationError,
  createMemoryEventStore,
  resolveHostGuard,
  type EventStore,
  type HostGuardOptions,
  type HostGuardPolicy,
} from '@rondo/core';
import type { OAuthResourceOptions } from './oauth.js';

/**
 * Options of the Streamable HTTP transport; every security check is on unless turned off here.
 * `allowedHosts` and `allowedOrigins` are the Host / Origin guard's, shared with the WebSocket
 * transport (see {@link HostGuardOptions}).
 */
export interface HttpTransportOptions extends HostGuardOptions {
  /** The MCP endpoint's path. Default `/mcp`. */
  path?: string;
  /** Largest request body accepted, in bytes (413 above). Default 4 MiB. */
  maxBodyBytes?: number;
  /** A session with no request in flight and no open stream is closed after this long. Default 30 min. */
  sessionIdleTimeoutMs?: number;
  /**
   * Most live sessions. At the cap the least recently used idle session (no request in flight, no
   * open stream) is closed; when none is idle, the request that would open a session gets 503 with
   * `Retry-After`. Default 10,000.
   */
  maxSessions?: number;
  /**
   * Most live sessions of one client: the authenticated principal, or without `auth` the peer's
   * address (see `clientAddressHeader`). At it, that client's own least recently used idle session
   * is closed; when none is idle, its request that would open one gets 503. Default 100.
   */
  maxSessionsPerClient?: number;
  /** @deprecated The former name of `maxSessionsPerClient`, which now counts anonymous clients too. */
  maxSessionsPerPrincipal?: number;
  /**
   * Most SSE responses one client (as for `maxSessionsPerClient`) has open at once: GET streams
   * and POST streams, `subscriptions/listen` ones included. Past it that client's GET, or its POST
   * whose answer would become a stream, gets 503 with `Retry-After`; other clients are not
   * touched. 0 removes the cap. Default 100.
   */
  maxStreamsPerClient?: number;
  /**
   * Behind a reverse proxy every connection comes from the proxy: name the request header the proxy
   * sets to the client's address (`x-real-ip`, or `x-forwarded-for`, whose last entry is taken) and
   * anonymous clients are told apart by it instead. Only with a proxy that sets it on every
   * request: a client reaching the server directly can send any value. Default: the connection's
   * peer address.
   */
  clientAddressHeader?: string;
  /**
   * How many leading bits of an IPv6 address make one anonymous client for the per-client caps:
   * default 64, since a subscriber is given a whole /64 and may send from any address of it; 128
   * counts each address alone. IPv4 addresses are always one client each.
   */
  ipv6ClientPrefix?: number;
  /**
   * Most POST streams (a request answered as SSE, until its last event) open in one session. The
   * POST whose answer would pass it gets 503 with `Retry-After` and its request is cancelled.
   * Default 32.
   */
  maxStreamsPerSession?: number;
  /**
   * Most SSE responses open at once over the handler (POST streams, with or without a session, and
   * GET streams). Past it, a GET gets 503 with `Retry-After`, and so does a POST whose answer would
   * become a stream (its request is cancelled). 0 removes the cap. Default 10,000.
   */
  maxOpenStreams?: number;
  /** The `Retry-After` (seconds) of a 503 for too many sessions or streams. Default 5. */
  sessionRetryAfterSeconds?: number;
  /** Where session SSE events are kept for `Last-Event-ID` resumption; `false` disables ids. */
  eventStore?: EventStore | false;
  /** The `retry:` delay sent in the priming event of a session stream. Default 1000 ms. */
  sseRetryMs?: number;
  /**
   * A POST stream of a session whose client resumes streams (2025-11-25 on) has its response
   * closed after this long while its request runs on; the client resumes it with a GET and
   * `Last-Event-ID` (SSE polling, for proxies that cut long responses). 0, the default, never.
   */
  maxStreamDurationMs?: number;
  /** Interval of SSE keep-alive comments on open streams; 0 disables them. Default 15 s. */
  keepAliveMs?: number;
  /**
   * An SSE response whose client leaves more than this many bytes unread and takes nothing for a
   * whole `streamBacklogWindowMs` is cut, whether its answer is still running or has finished and
   * waits to be read (a `Last-Event-ID` replay): its connection is dropped. A session stream's events stay stored for a `Last-Event-ID`
   * resumption; a stream without a session has its request cancelled. 0 removes the limit.
   * Default 4 MiB.
   */
  maxStreamBacklogBytes?: number;
  /** How often the SSE backlog is checked. Default 5000 ms. */
  streamBacklogWindowMs?: number;
  /** OAuth 2.1 resource server: Protected Resource Metadata and bearer tokens on every MCP request. */
  auth?: OAuthResourceOptions;
  /** Called with failures that cannot be answered on the wire (a handler throwing after headers went out). */
  onError?: (error: unknown) => void;
}

/** {@link HttpTransportOptions} with every default applied. */
export interface ResolvedHttpOptions {
  path: string;
  guard: HostGuardPolicy;
  maxBodyBytes: number;
  sessionIdleTimeoutMs: number;
  maxSessions: number;
  maxSessionsPerClient: number;
  maxStreamsPerSession: number;
  maxOpenStreams: number;
  maxStreamsPerClient: number;
  clientAddressHeader: string | undefined;
  ipv6ClientPrefix: number;
  sessionRetryAfterSeconds: number;
  eventStore: EventStore | undefined;
  sseRetryMs: number;
  maxStreamDurationMs: number;
  keepAliveMs: number;
  maxStreamBacklogBytes: number;
  streamBacklogWindowMs: number;
  auth: OAuthResourceOptions | undefined;
  onError: (error: unknown) => void;
}

const MIB = 1024 * 1024;

/**
 * The defaults of {@link HttpTransportOptions}' limits, as `docs/limits.md` lists them: what a
 * client, or many, can make the transport hold when the options leave them unset.
 */
export const HTTP_TRANSPORT_DEFAULTS = {
  maxBodyBytes: 4 * MIB,
  sessionIdleTimeoutMs: 30 * 60_000,
  maxSessions: 10_000,
  maxSessionsPerClient: 100,
  maxStreamsPerSession: 32,
  maxOpenStreams: 10_000,
  maxStreamsPerClient: 100,
  sessionRetryAfterSeconds: 5,
  maxStreamDurationMs: 0,
  keepAliveMs: 15_000,
  maxStreamBacklogBytes: 4 * MIB,
  streamBacklogWindowMs: 5000,
} as const;

/** Applies the defaults. */
export function resolveOptions(
  options: HttpTransportOptions = {},
  /** The event store of the endpoint's state (shared, or this process's memory default). */
  defaultEvents: EventStore = createMemoryEventStore(),
): ResolvedHttpOptions {
  const path = options.path ?? '/mcp';
  if (!path.startsWith('/'))
    throw new ConfigurationError(`The MCP path must start with "/", got "${path}"`);
  return {
    path,
    guard: resolveHostGuard(options),
    maxBodyBytes: options.maxBodyBytes ?? HTTP_TRANSPORT_DEFAULTS.maxBodyBytes,
    sessionIdleTimeoutMs:
      options.sessionIdleTimeoutMs ?? HTTP_TRANSPORT_DEFAULTS.sessionIdleTimeoutMs,
    maxSessions: atLeastOne(
      'maxSessions',
      options.maxSessions ?? HTTP_TRANSPORT_DEFAULTS.maxSessions,
    ),
    maxSessionsPerClient: atLeastOne(
      'maxSessionsPerClient',
      options.maxSessionsPerClient ??
        options.maxSessionsPerPrincipal ??
        HTTP_TRANSPORT_DEFAULTS.maxSessionsPerClient,
    ),
    maxStreamsPerSession: atLeastOne(
      'maxStreamsPerSession',
      options.maxStreamsPerSession ?? HTTP_TRANSPORT_DEFAULTS.maxStreamsPerSession,
    ),
    maxOpenStreams: atLeastZero(
      'maxOpenStreams',
      options.maxOpenStreams ?? HTTP_TRANSPORT_DEFAULTS.maxOpenStreams,
    ),
    maxStreamsPerClient: atLeastZero(
      'maxStreamsPerClient',
      options.maxStreamsPerClient ?? HTTP_TRANSPORT_DEFAULTS.maxStreamsPerClient,
    ),
    clientAddressHeader: options.clientAddressHeader?.toLowerCase(),
    ipv6ClientPrefix: checkIpv6Prefix(options.ipv6ClientPrefix, 'ipv6ClientPrefix'),
    sessionRetryAfterSeconds: Math.max(
      0,
      Math.ceil(
        options.sessionRetryAfterSeconds ?? HTTP_TRANSPORT_DEFAULTS.sessionRetryAfterSeconds,
      ),
    ),
    eventStore: options.eventStore === false ? undefined : (options.eventStore ?? defaultEvents),
    sseRetryMs: options.sseRetryMs ?? 1000,
    maxStreamDurationMs: atLeastZero(
      'maxStreamDurationMs',
      options.maxStreamDurationMs ?? HTTP_TRANSPORT_DEFAULTS.maxStreamDurationMs,
    ),
    keepAliveMs: options.keepAliveMs ?? HTTP_TRANSPORT_DEFAULTS.keepAliveMs,
    maxStreamBacklogBytes: atLeastZero(
      'maxStreamBacklogBytes',
      options.maxStreamBacklogBytes ?? HTTP_TRANSPORT_DEFAULTS.maxStreamBacklogBytes,
    ),
    streamBacklogWindowMs: atLeastOne(
      'streamBacklogWindowMs',
      options.streamBacklogWindowMs ?? HTTP_TRANSPORT_DEFAULTS.streamBacklogWindowMs,
    ),
    auth: options.auth,
    onError: options.onError ?? ((error) => console.error('[rondo/transport-http]', error)),
  };
}

function atLeastZero(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 0)
    throw new ConfigurationError(`${name} must be a non-negative integer, got ${value}`);
  return value;
}

function atLeastOne(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1)
    throw new ConfigurationError(`${name} must be a positive integer, got ${value}`);
  return value;
}
