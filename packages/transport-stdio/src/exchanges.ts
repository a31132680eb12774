import {
  ErrorCode,
  errorResponse,
  isRequest,
  type JsonRpcErrorResponse,
  type JsonRpcMessage,
} from '@rondo/protocol';
import type { Exchange } from '@rondo/core';

/**
 * The exchanges of one stdio connection that have not ended yet. Every inbound message gets one;
 * stdio has a single channel, so `send` and `end` both write to it. Knowing which are open is what
 * lets end of input wait for in-flight work.
 */
export class OpenExchanges {
  private readonly open = new Set<AbortController>();
  private idleListener: (() => void) | undefined;

  constructor(private readonly write: (message: JsonRpcMessage) => void) {}

  /** How many exchanges have not ended. */
  get size(): number {
    return this.open.size;
  }

  /** Opens an exchange for one inbound message. */
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
        if (this.open.size === 0) this.idleListener?.();
      },
      signal: controller.signal,
    };
  }

  /** Calls `listener` whenever the last open exchange ends. */
  onIdle(listener: () => void): void {
    this.idleListener = listener;
  }

  /** Aborts every open exchange's signal and forgets them. */
  abortAll(): void {
    for (const controller of this.open) controller.abort();
    this.open.clear();
  }
}

/** The answer to a message whose handling threw: -32603 for a request, nothing for anything else. */
export function internalErrorFor(message: JsonRpcMessage): JsonRpcErrorResponse | undefined {
  return isRequest(message)
    ? errorResponse(message.id, ErrorCode.InternalError, 'Internal error')
    : undefined;
}
