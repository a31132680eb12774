import type { Exchange } from '@rondo/core';
import type { JsonRpcMessage } from '@rondo/protocol';

/**
 * The exchanges of one socket that have not ended. On a socket every exchange writes to the same
 * place; what this adds is the end-once rule and one signal per exchange, aborted when the socket
 * goes away.
 */
export class ExchangeSet {
  private readonly open = new Set<AbortController>();

  constructor(private readonly write: (message: JsonRpcMessage) => void) {}

  /** Exchanges not yet ended. */
  get size(): number {
    return this.open.size;
  }

  /** Opens the exchange for one inbound message. */
  create(): Exchange {
    const controller = new AbortController();
    this.open.add(controller);
    let ended = false;
    return {
      send: (message) => {
        if (!ended) this.write(message);
      },
      end: (message) => {
        if (ended) return;
        ended = true;
        this.open.delete(controller);
        if (message) this.write(message);
      },
      // No `headers`: a frame has none, and the upgrade request's HTTP headers describe the
      // connection, not the message (the modern era checks per-message HTTP headers when present).
      signal: controller.signal,
    };
  }

  /** Aborts every open exchange: its peer is gone. */
  abortAll(reason: Error): void {
    const open = [...this.open];
    this.open.clear();
    for (const controller of open) controller.abort(reason);
  }
}
