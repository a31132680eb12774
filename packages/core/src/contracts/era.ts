import type { Era, JsonObject, JsonRpcMessage } from '@rondo/protocol';
import type { Extension } from './extension.js';
import type { ServerCapabilitySet, ServerInfo } from './server.js';
import type { Exchange, Peer } from './transport.js';

/**
 * What an era adapter is opened on: the server an endpoint composes, as much of it as an era
 * describes to its clients (who it is, what it offers, which extensions it uses). The server's
 * runtime implements it; Rondo's own adapters, which drive the request pipeline, reach the runtime
 * behind it with `runtimeOfHost` from `@rondo/core/internal`.
 */
export interface EraHost {
  /** The server's name, version and the rest it announces. */
  readonly info: ServerInfo;
  /** The extensions the server uses, in the order it took them. */
  readonly extensions: readonly Extension[];
  /** What the providers offer, for capability negotiation; {@link ready} must have resolved. */
  capabilities(): ServerCapabilitySet;
  /** Resolves once every provider's lists are read. */
  ready(): Promise<void>;
}

/** What an endpoint tells each of its eras about the whole endpoint. */
export interface EndpointFacts {
  /** Every revision the endpoint serves, through any of its eras, newest era first. */
  readonly revisions: readonly string[];
}

/**
 * One protocol era behind one interface. An adapter knows its era's wire, never sockets; the router
 * picks the adapter per message with `classifyMessage`.
 */
export interface EraAdapter {
  readonly era: Era;
  /** The revisions this era serves, newest first. */
  readonly revisions: readonly string[];
  /** Opens this era's state for one connection. */
  open(host: EraHost, peer: Peer, endpoint: EndpointFacts): EraSession;
  /** Rebuilds a session of this era from its {@link EraSession.snapshot} (taken by any process). */
  restore?(host: EraHost, peer: Peer, endpoint: EndpointFacts, snapshot: JsonObject): EraSession;
}

/** An era's state on one connection. */
export interface EraSession {
  /** Handles one message of this era. */
  receive(message: JsonRpcMessage, exchange: Exchange): void;
  /** True when the session must outlive the message (a legacy session after `initialize`). */
  readonly stateful: boolean;
  /** Requests being handled now. */
  readonly inFlight: number;
  /** True when the peer resumes streams that end early (see `Connection.resumesStreams`). */
  readonly resumesStreams?: boolean;
  /** The session's state as plain JSON, once it is stateful (see `Connection.snapshot`). */
  snapshot?(): JsonObject | undefined;
  /** Takes a newer snapshot of the same session (see `Connection.refresh`). */
  refresh?(snapshot: JsonObject): void;
  /** Aborts in-flight work and drops subscriptions. */
  close(): void;
}
