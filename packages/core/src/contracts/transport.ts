import type { JsonRpcMessage } from '@rondo/protocol';
import type { JsonObject } from '@rondo/protocol';
import type { Cancellation } from './cancellation.js';
import type { HttpRoute } from './routes.js';
import type { Principal } from './definitions.js';
import type { EventStore } from './eventStore.js';
import type { SessionRelay } from './sessionRelay.js';
import type { SessionStore } from './sessionStore.js';

/**
 * The contract between a transport and the server. A transport knows bytes and connections; it
 * parses frames into messages, hands each to {@link Connection.receive} with an {@link Exchange} for
 * the messages that answer it, and sends what the server gives back. Nothing here is era-specific.
 */

/**
 * What became of an inbound message, in terms every transport can map: `handled` (it was taken up;
 * an error in the answer is the handler's), `refused` (it was refused before it ran: malformed,
 * or not acceptable on this connection; HTTP 400), `unknown` (it names a method nobody serves;
 * HTTP 404), `unclaimed` (a response or a cancellation that matches nothing in flight here: where
 * several processes serve one session, another one may hold its request), `forbidden` (the caller
 * lacks scopes the call needs, named in the error's `data.requiredScopes`; HTTP 403 with an
 * `insufficient_scope` challenge), `throttled` (a rate limit refused it, `data.retryAfterMs`; HTTP
 * 429 with `Retry-After`).
 */
export type Disposition =
  'handled' | 'refused' | 'unknown' | 'unclaimed' | 'forbidden' | 'throttled';

/** The outbound side of one inbound message. */
export interface Exchange {
  /**
   * Sends a message that belongs to this inbound message before its final answer: progress, a log
   * line, a server-to-client request, a subscription's notification. A transport that answers with
   * one body (HTTP) switches to a stream when this is first called.
   */
  send(message: JsonRpcMessage): void;
  /**
   * Sends the final answer (if any) and ends the exchange. Called exactly once. A connection that
   * becomes stateful with this answer (a legacy `initialize`) is stateful before `end` is called,
   * so the transport can send the session's id with the answer. `disposition` says what became of
   * the message (default `handled`), for transports that report it (HTTP maps it to a status).
   */
  end(message?: JsonRpcMessage, disposition?: Disposition): void;
  /**
   * Aborted when the peer can no longer receive this exchange's messages (say, an HTTP response
   * closed). Transports keep a `LazyAbortController` (`@rondo/core/internal`), so an exchange
   * nobody listens to costs no `AbortSignal`.
   */
  readonly cancellation: Cancellation;
  /** Transport facts about the inbound message, such as HTTP headers (lower-case names). */
  readonly headers?: Readonly<Record<string, string | string[] | undefined>>;
  /** The principal the transport authenticated, if any. */
  readonly principal?: Principal;
  /**
   * Who the client is as the transport tells clients apart without a principal (say, the peer's
   * address): an opaque key for the fair shares a client draws on (its running tasks). Left out
   * when the transport cannot tell; a principal, when there is one, comes first.
   */
  readonly client?: string;
  /**
   * The network address of the peer as the transport's socket saw it (a proxy's, behind one), when
   * the transport has one; policies keyed by address read it (and a proxy's header, if told to).
   */
  readonly address?: string;
  /** The id the transport keeps this connection's session under (an HTTP `Mcp-Session-Id`), if any. */
  readonly sessionId?: string;
  /**
   * Ends the response that carries this exchange's messages without ending the exchange, when the
   * transport can resume it (an HTTP session stream, which the client resumes with
   * `Last-Event-ID`): what is sent afterwards, the final answer included, waits for that
   * resumption. Transports that cannot resume a stream leave it out.
   */
  closeStream?(): void;
  /**
   * Keeps the runtime serving this exchange alive until `work` settles, for work that outlives the
   * exchange's response (a task's run). Transports on runtimes that stop a request's pending work
   * once its response is done (a Cloudflare Worker's `ctx.waitUntil`) provide it; elsewhere the
   * process runs on anyway and transports leave it out.
   */
  waitUntil?(work: Promise<unknown>): void;
}

/** How a message goes out on a peer's own channel. */
export interface PeerSendOptions {
  /**
   * What the message is, the same in every process that sends it (a change notification for one
   * session): where several processes serve one session, only the first send of a key delivers.
   */
  once?: string;
}

/** The far end of a connection, for messages not tied to an inbound one. */
export interface Peer {
  /** Sends a message on the connection's own channel (a stdio stream, a socket, an HTTP GET stream). */
  send(message: JsonRpcMessage, options?: PeerSendOptions): void;
  /**
   * Ends the response that carries the connection's own channel (an HTTP GET stream) without
   * ending the channel: messages sent meanwhile wait for the client to reconnect. Transports
   * whose channel cannot be resumed leave it out.
   */
  closeStream?(): void;
}

/** One connection: a stdio process, a WebSocket, an HTTP session (or one stateless HTTP request). */
export interface Connection {
  /** Hands one inbound message to the server. */
  receive(message: JsonRpcMessage, exchange: Exchange): void;
  /** True once the connection holds session state (a legacy session), so a transport must keep it. */
  readonly stateful: boolean;
  /** Requests being handled now; 0 when the connection is idle. */
  readonly inFlight: number;
  /**
   * True when the peer resumes a stream that ended before its last message, and reads an event
   * that carries no message as a point to resume from (its handshake promised it). Only then may
   * a transport send such events (an SSE priming event) or close a stream early.
   */
  readonly resumesStreams?: boolean;
  /**
   * The connection's session state as plain JSON (a legacy session's negotiated revision, client
   * capabilities, log level, subscriptions), for a store other processes read; `undefined` while
   * the connection holds none. {@link Endpoint.restore} rebuilds a connection from it.
   */
  snapshot?(): JsonObject | undefined;
  /** Takes a newer snapshot another process saved for the same session, keeping what runs here. */
  refresh?(snapshot: JsonObject): void;
  /** Aborts everything in flight and forgets the connection's state. */
  close(): void;
}

/**
 * What a transport keeps of an endpoint's sessions where every process serving the endpoint finds
 * it: the sessions' records, their streams' events, and the relay to the process a message waits
 * in. The server's `SharedState` (`createServer({ shared })`) is one.
 */
export interface EndpointState {
  readonly sessions: SessionStore;
  readonly events: EventStore;
  readonly relay: SessionRelay;
}

/** What transports serve: a server composed with the eras it speaks. */
export interface Endpoint {
  /** Opens a connection for a peer. */
  connect(peer: Peer): Connection;
  /** Opens a connection for a peer with the session state another process saved (`snapshot`). */
  restore?(peer: Peer, snapshot: JsonObject): Connection;
  /** State shared with the other processes serving this endpoint, when the server has it. */
  readonly shared?: EndpointState | undefined;
  /** Resolves once the server's providers are read. */
  ready(): Promise<void>;
  /** Paths served over HTTP beside the MCP endpoint (the server's extensions' routes). */
  readonly routes?: readonly HttpRoute[];
  /** Closes the server's providers. */
  close(): Promise<void>;
  /**
   * Called by a transport whose clients could reach more than one server process at one address
   * (HTTP, WebSocket), so the server can warn about settings that only hold within one process.
   */
  servedOverNetwork?(): void;
}
