import type { Era, JsonRpcMessage } from '@rondo/protocol';
import type { RondoServer } from './server.js';
import type { Exchange, Peer } from './transport.js';

/**
 * One protocol era behind one interface. An adapter knows its era's wire, never sockets; the router
 * picks the adapter per message with `classifyMessage`.
 */
export interface EraAdapter {
  readonly era: Era;
  /** Opens this era's state for one connection. */
  open(server: RondoServer, peer: Peer): EraSession;
}

/** An era's state on one connection. */
export interface EraSession {
  /** Handles one message of this era. */
  receive(message: JsonRpcMessage, exchange: Exchange): void;
  /** True when the session must outlive the message (a legacy session after `initialize`). */
  readonly stateful: boolean;
  /** Requests being handled now. */
  readonly inFlight: number;
  /** Aborts in-flight work and drops subscriptions. */
  close(): void;
}
