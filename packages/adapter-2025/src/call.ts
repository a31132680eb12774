import type { Exchange, Peer } from '@rondo/core';
import type { JsonRpcMessage, JsonRpcRequest } from '@rondo/protocol';
import type { RequestChannel } from './clientRequests.js';

/**
 * One inbound request being handled: its exchange, its cancellation, and whether it was answered.
 * Messages tied to the request (progress, logs, server-to-client requests) ride the request's own
 * exchange, so over HTTP they stream on that POST; once it is answered they fall back to the peer.
 */
export class LegacyCall implements RequestChannel {
  readonly signal: AbortSignal;
  private readonly controller = new AbortController();
  private answered = false;

  constructor(
    readonly request: JsonRpcRequest,
    private readonly exchange: Exchange,
    private readonly peer: Peer,
  ) {
    this.signal = AbortSignal.any([this.controller.signal, exchange.signal]);
  }

  /** The request's params (`{}` when absent). */
  get params(): Record<string, unknown> {
    return this.request.params ?? {};
  }

  /** The principal the transport authenticated for this request. */
  get principal(): Exchange['principal'] {
    return this.exchange.principal;
  }

  /** True once the final answer was sent (or the client cancelled). */
  get done(): boolean {
    return this.answered;
  }

  /** Sends a message related to this request. */
  send(message: JsonRpcMessage): void {
    if (this.answered) this.peer.send(message);
    else this.exchange.send(message);
  }

  /** Sends the final answer; later calls do nothing. */
  finish(message?: JsonRpcMessage): void {
    if (this.answered) return;
    this.answered = true;
    this.exchange.end(message);
  }

  /** The client cancelled: no answer is sent, and the handler's signal fires. */
  cancel(reason: string): void {
    this.finish();
    this.controller.abort(new Error(reason));
  }
}
