import { ClientRequestError } from '@rondo/core';
import type { JsonRpcMessage, JsonRpcResponse, RequestId } from '@rondo/protocol';
import type { WireRequest } from './inputRequests.js';

/** Where a server-to-client request goes out, and what cancels it. */
export interface RequestChannel {
  send(message: JsonRpcMessage): void;
  /** Aborted when the handler that asked is cancelled: the request is then cancelled too. */
  readonly signal: AbortSignal;
}

interface Pending {
  method: string;
  resolve(result: Record<string, unknown>): void;
  reject(failure: Error): void;
}

/**
 * The server-to-client requests of one session that still wait for an answer. Ids are unique per
 * session (`rondo-1`, `rondo-2`, ...); the client's response arrives later as an inbound message and
 * is matched by id. A request that times out or whose handler is cancelled is withdrawn with
 * `notifications/cancelled` and rejected with a {@link ClientRequestError}.
 */
export class OutstandingRequests {
  private nextId = 1;
  /** Made on the first request: most sessions never ask their client anything. */
  private pendingTable: Map<RequestId, Pending> | undefined;

  constructor(
    private readonly timeoutMs: number,
    /** Most requests waiting at once; asking past it fails before anything is sent. */
    private readonly maxPending: number = Number.POSITIVE_INFINITY,
  ) {}

  /** Requests waiting for an answer. */
  get size(): number {
    return this.pendingTable?.size ?? 0;
  }

  private get pending(): Map<RequestId, Pending> {
    return (this.pendingTable ??= new Map());
  }

  /** Sends a request and resolves with the client's result. */
  request(wire: WireRequest, channel: RequestChannel): Promise<Record<string, unknown>> {
    if (channel.signal.aborted)
      return Promise.reject(new ClientRequestError(`${wire.method} was cancelled`));
    if (this.size >= this.maxPending)
      return Promise.reject(
        new ClientRequestError(
          `${wire.method} was not sent: ${this.maxPending} requests to the client already wait for an answer (limit maxPendingClientRequests)`,
        ),
      );
    const id = `rondo-${this.nextId++}`;
    return new Promise((resolve, reject) => {
      const withdraw = (reason: string) => {
        if (!this.pending.delete(id)) return;
        cleanup();
        channel.send({
          jsonrpc: '2.0',
          method: 'notifications/cancelled',
          params: { requestId: id, reason },
        });
        reject(new ClientRequestError(reason));
      };
      const onAbort = () =>
        withdraw(`${wire.method} was cancelled because the request that asked was cancelled`);
      const timer = setTimeout(
        () => withdraw(`The client did not answer ${wire.method} within ${this.timeoutMs} ms`),
        this.timeoutMs,
      );
      const cleanup = () => {
        clearTimeout(timer);
        channel.signal.removeEventListener('abort', onAbort);
      };
      channel.signal.addEventListener('abort', onAbort, { once: true });
      this.pending.set(id, {
        method: wire.method,
        resolve: (result) => (cleanup(), resolve(result)),
        reject: (failure) => (cleanup(), reject(failure)),
      });
      channel.send({ jsonrpc: '2.0', id, method: wire.method, params: wire.params });
    });
  }

  /** Delivers a client's response; false when no request of this session has its id. */
  settle(response: JsonRpcResponse): boolean {
    const id = response.id;
    const entry = id === null ? undefined : this.pendingTable?.get(id);
    if (!entry || id === null) return false;
    this.pending.delete(id);
    if ('result' in response) {
      entry.resolve(response.result);
    } else {
      const { code, message } = response.error;
      entry.reject(
        new ClientRequestError(`The client refused ${entry.method} (${code}): ${message}`),
      );
    }
    return true;
  }

  /** Rejects every waiting request (the session is closing); nothing is sent. */
  rejectAll(reason: string): void {
    const entries = [...(this.pendingTable?.values() ?? [])];
    this.pendingTable = undefined;
    for (const entry of entries) entry.reject(new ClientRequestError(reason));
  }
}
