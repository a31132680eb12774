import { LazyAbortController, type Exchange } from '@rondo/core';
import type { JsonRpcMessage } from '@rondo/protocol';

/**
 * The exchanges of one socket that have not ended. On a socket every exchange writes to the same
 * place; what this adds is the end-once rule and one signal per exchange, aborted when the socket
 * goes away.
 */
export class ExchangeSet {
  private readonly open = new Set<FrameExchange>();

  constructor(private readonly write: (message: JsonRpcMessage) => void) {}

  /** Exchanges not yet ended. */
  get size(): number {
    return this.open.size;
  }

  /** Opens the exchange for one inbound message. */
  create(): Exchange {
    const exchange = new FrameExchange(this.write, this.open);
    this.open.add(exchange);
    return exchange;
  }

  /** Aborts every open exchange: its peer is gone. */
  abortAll(reason: Error): void {
    const open = [...this.open];
    this.open.clear();
    for (const exchange of open) exchange.abort(reason);
  }
}

/**
 * One frame's exchange: a class, so an exchange costs one object and no closures, and its signal
 * is created only if someone reads it. No `headers`: a frame has none, and the upgrade request's
 * HTTP headers describe the connection, not the message (the modern era checks per-message HTTP
 * headers when present).
 */
class FrameExchange implements Exchange {
  private readonly cancellation = new LazyAbortController();
  private ended = false;

  constructor(
    private readonly write: (message: JsonRpcMessage) => void,
    private readonly open: Set<FrameExchange>,
  ) {}

  get signal(): AbortSignal {
    return this.cancellation.signal;
  }

  send(message: JsonRpcMessage): void {
    if (!this.ended) this.write(message);
  }

  end(message?: JsonRpcMessage): void {
    if (this.ended) return;
    this.ended = true;
    this.open.delete(this);
    if (message) this.write(message);
  }

  abort(reason: Error): void {
    this.cancellation.abort(reason);
  }
}
