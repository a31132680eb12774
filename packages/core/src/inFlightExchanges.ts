import type { JsonRpcMessage } from '@rondo/protocol';
import type { Cancellation } from './contracts/cancellation.js';
import { LazyAbortController } from './lazyAbort.js';
import type { Principal } from './contracts/definitions.js';
import type { Exchange } from './contracts/transport.js';
import { ShortLivedSet } from './shortLived.js';

/**
 * The exchanges of one connection that have not ended yet, for transports whose every message goes
 * out on one channel (a stdio stream, a socket). Each inbound message gets an exchange whose `send`
 * and `end` both write to that channel; what this adds is the end-once rule, one cancellation per
 * exchange (aborted when the peer goes away) and a count of the open ones, so a transport can wait
 * for in-flight work before it closes.
 */
export class InFlightExchanges {
  private readonly open = new ShortLivedSet<ChannelExchange>();
  private idleListener: (() => void) | undefined;

  /**
   * `write` sends one message on the connection's channel; `principal`, when the transport
   * authenticated the connection (a WebSocket upgrade's bearer token), is every exchange's, and so
   * is `client`, who the connection comes from when the transport can tell (`Exchange.client`).
   */
  constructor(
    private readonly write: (message: JsonRpcMessage) => void,
    private readonly principal?: Principal,
    private readonly client?: string,
  ) {}

  /** How many exchanges have not ended. */
  get size(): number {
    return this.open.size;
  }

  /** Opens the exchange for one inbound message. */
  create(): Exchange {
    const exchange = new ChannelExchange(this.write, this.settle);
    // Defined only when there is one, as transports without authentication leave it out.
    if (this.principal) Object.assign(exchange, { principal: this.principal });
    if (this.client !== undefined) Object.assign(exchange, { client: this.client });
    this.open.add(exchange);
    return exchange;
  }

  /** Calls `listener` whenever the last open exchange ends (one listener; a later call replaces it). */
  onIdle(listener: () => void): void {
    this.idleListener = listener;
  }

  /**
   * Forgets every open exchange and aborts its cancellation (with `reason`, or the default `AbortError`):
   * the peer is gone. Exchanges ended afterwards write as before but no longer count.
   */
  abortAll(reason?: unknown): void {
    const open = [...this.open];
    this.open.clear();
    for (const exchange of open) exchange.abort(reason);
  }

  /** Forgets an ended exchange, then writes its final answer, then reports idleness. */
  private readonly settle = (exchange: ChannelExchange, message?: JsonRpcMessage): void => {
    const wasOpen = this.open.delete(exchange);
    if (message) this.write(message);
    if (wasOpen && this.open.size === 0) this.idleListener?.();
  };
}

/**
 * One inbound message's exchange: a class, so an exchange costs one object and no closures, and its
 * cancellation makes an `AbortSignal` only if someone reads it. No `headers`: a line or a frame has none (the HTTP
 * headers of a WebSocket upgrade describe the connection, not the message).
 */
class ChannelExchange implements Exchange {
  declare readonly principal?: Principal;
  declare readonly client?: string;
  private readonly controller = new LazyAbortController();
  private ended = false;

  constructor(
    private readonly write: (message: JsonRpcMessage) => void,
    private readonly settle: (exchange: ChannelExchange, message?: JsonRpcMessage) => void,
  ) {}

  get cancellation(): Cancellation {
    return this.controller;
  }

  send(message: JsonRpcMessage): void {
    if (!this.ended) this.write(message);
  }

  end(message?: JsonRpcMessage): void {
    if (this.ended) return;
    this.ended = true;
    this.settle(this, message);
  }

  abort(reason: unknown): void {
    this.controller.abort(reason);
  }
}
