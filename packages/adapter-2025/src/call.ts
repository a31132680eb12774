import { LazyAbortController, type Exchange, type Peer } from '@rondo/core';
import type { JsonRpcMessage, JsonRpcRequest } from '@rondo/protocol';
import type { RequestChannel } from './clientRequests.js';

/**
 * One inbound request being handled: its exchange, its cancellation, and whether it was answered.
 * Messages tied to the request (progress, logs, server-to-client requests) ride the request's own
 * exchange, so over HTTP they stream on that POST; once it is answered they fall back to the peer.
 * Its signal (the client's cancellation joined with the exchange's) is built only when read: most
 * calls end before anyone listens, and building it costs more than a small call.
 */
export class LegacyCall implements RequestChannel {
  private readonly cancellation = new LazyAbortController();
  private joined: AbortSignal | undefined;
  private answered = false;
  /** The last progress value reported for this call, by any of its rounds. */
  lastProgress = Number.NEGATIVE_INFINITY;

  constructor(
    readonly request: JsonRpcRequest,
    private readonly exchange: Exchange,
    private readonly peer: Peer,
  ) {}

  /** Aborted when the client cancels the call or the exchange's peer goes away. */
  get signal(): AbortSignal {
    this.joined ??= AbortSignal.any([this.cancellation.signal, this.exchange.signal]);
    return this.joined;
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
    this.cancellation.abort(new Error(reason));
  }
}
