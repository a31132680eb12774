import { scaled } from './timeFactor.js';
import {
  serializeMessage,
  validateMessage,
  type JsonRpcMessage,
  type JsonRpcRequest,
  type JsonRpcResponse,
} from '@rondo/protocol';
import type { Connection, Disposition, Endpoint, Exchange } from '@rondo/core';
import { LazyAbortController } from '@rondo/core/internal';

/** What one inbound message produced: the messages sent before the end, and the final one. */
export interface ExchangeRecord {
  sent: JsonRpcMessage[];
  final: JsonRpcMessage | undefined;
  /** What the server said became of the message, for transports that report it. */
  disposition?: Disposition | undefined;
  ended: Promise<JsonRpcMessage | undefined>;
  abort(): void;
}

/**
 * A connection driven in memory, for adapter tests: every message passes through JSON text both
 * ways, as on a real wire, and outbound messages are recorded per exchange and per connection.
 */
export class MemoryConnection {
  readonly connection: Connection;
  /** Messages the server sent on the connection's own channel (session notifications). */
  readonly peerMessages: JsonRpcMessage[] = [];
  /** Every message the server wrote, in order, for schema validation. */
  readonly written: JsonRpcMessage[] = [];
  private nextId = 1;
  private peerWaiters: (() => void)[] = [];

  constructor(endpoint: Endpoint) {
    this.connection = endpoint.connect({
      send: (message) => {
        const copy = roundTrip(message);
        this.peerMessages.push(copy);
        this.written.push(copy);
        for (const wake of this.peerWaiters.splice(0)) wake();
      },
    });
  }

  /** Sends a message and records its exchange. */
  send(message: JsonRpcMessage, headers?: Record<string, string>): ExchangeRecord {
    const controller = new LazyAbortController();
    let resolveEnd!: (message: JsonRpcMessage | undefined) => void;
    const record: ExchangeRecord = {
      sent: [],
      final: undefined,
      ended: new Promise((resolve) => (resolveEnd = resolve)),
      abort: () => controller.abort(),
    };
    const exchange: Exchange = {
      send: (out) => {
        const copy = roundTrip(out);
        record.sent.push(copy);
        this.written.push(copy);
      },
      end: (out, disposition) => {
        const copy = out === undefined ? undefined : roundTrip(out);
        if (copy) this.written.push(copy);
        record.final = copy;
        record.disposition = disposition;
        resolveEnd(copy);
      },
      cancellation: controller,
      ...(headers ? { headers } : {}),
    };
    this.connection.receive(roundTrip(message), exchange);
    return record;
  }

  /** Sends a request with a fresh id and waits for its final answer. */
  async request(method: string, params?: Record<string, unknown>): Promise<JsonRpcResponse> {
    const request: JsonRpcRequest = {
      jsonrpc: '2.0',
      id: this.nextId++,
      method,
      ...(params ? { params } : {}),
    };
    const final = await this.send(request).ended;
    return final as JsonRpcResponse;
  }

  /** Waits until the peer channel holds a message matching `predicate`. */
  async waitForPeer(
    predicate: (message: JsonRpcMessage) => boolean,
    timeoutMs = scaled(5000),
  ): Promise<JsonRpcMessage> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.peerMessages.find(predicate);
      if (found) return found;
      if (Date.now() > deadline) throw new Error('timed out waiting for a peer message');
      await new Promise<void>((resolve) => {
        this.peerWaiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
  }
}

function roundTrip(message: JsonRpcMessage): JsonRpcMessage {
  const parsed = validateMessage(JSON.parse(serializeMessage(message)));
  if (!parsed.ok)
    throw new Error(`the server wrote an invalid JSON-RPC message: ${JSON.stringify(message)}`);
  return parsed.message;
}
