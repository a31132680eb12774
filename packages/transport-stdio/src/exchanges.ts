import {
  ErrorCode,
  errorResponse,
  isRequest,
  type JsonRpcErrorResponse,
  type JsonRpcMessage,
} from '@rondo/protocol';
import { LazyAbortController, type Exchange } from '@rondo/core';

/**
 * The exchanges of one stdio connection that have not ended yet. Every inbound message gets one;
 * stdio has a single channel, so `send` and `end` both write to it. Knowing which are open is what
 * lets end of input wait for in-flight work.
 */
export class OpenExchanges {
  private readonly open = new Set<LineExchange>();
  private idleListener: (() => void) | undefined;

  constructor(private readonly write: (message: JsonRpcMessage) => void) {}

  /** How many exchanges have not ended. */
  get size(): number {
    return this.open.size;
  }

  /** Opens an exchange for one inbound message. */
  create(): Exchange {
    const exchange = new LineExchange(this.write, this.ended);
    this.open.add(exchange);
    return exchange;
  }

  /** Calls `listener` whenever the last open exchange ends. */
  onIdle(listener: () => void): void {
    this.idleListener = listener;
  }

  /** Aborts every open exchange's signal and forgets them. */
  abortAll(): void {
    for (const exchange of this.open) exchange.abort();
    this.open.clear();
  }

  private readonly ended = (exchange: LineExchange): void => {
    this.open.delete(exchange);
    if (this.open.size === 0) this.idleListener?.();
  };
}

/** One inbound message's exchange: a class, so an exchange costs one object and no closures. */
class LineExchange implements Exchange {
  private readonly cancellation = new LazyAbortController();
  private ended = false;

  constructor(
    private readonly write: (message: JsonRpcMessage) => void,
    private readonly onEnd: (exchange: LineExchange) => void,
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
    if (message) this.write(message);
    this.onEnd(this);
  }

  abort(): void {
    this.cancellation.abort();
  }
}

/** The answer to a message whose handling threw: -32603 for a request, nothing for anything else. */
export function internalErrorFor(message: JsonRpcMessage): JsonRpcErrorResponse | undefined {
  return isRequest(message)
    ? errorResponse(message.id, ErrorCode.InternalError, 'Internal error')
    : undefined;
}
