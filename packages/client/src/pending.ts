import type { RequestId } from '@rondo/protocol';
import { ShortLivedMap } from '@rondo/core/internal';
import { TooManyPendingRequestsError } from './errors.js';
import type { ClientHandlers } from './handlers.js';

/**
 * Where the answer of one request goes, for a caller that takes it without a promise (see
 * `Client.forwardTo`). Both run while the client reads the connection, so neither may throw.
 */
export interface AnswerReceiver {
  /** The request's result. */
  resolve(result: Record<string, unknown>): void;
  /** Why the request failed: its JSON-RPC error as an `McpError`, or the client's own failure. */
  reject(error: Error): void;
}

/** One open request: how to settle it and what it needs while open. */
export interface PendingCall {
  readonly method: string;
  resolve(result: Record<string, unknown>): void;
  reject(error: Error): void;
  /** Called with each progress notification of the call. */
  readonly onProgress?: ((progress: ProgressUpdate) => void) | undefined;
  /** The call's own input handlers, which answer the server's requests made for it. */
  readonly handlers?: ClientHandlers | undefined;
  /** The caller's signal of the call. */
  readonly signal?: AbortSignal | undefined;
  /** Frees the call's timer and signal listener. */
  dispose(): void;
}

/** One progress notification, as the caller's callback gets it. */
export interface ProgressUpdate {
  readonly progress: number;
  readonly total?: number;
  readonly message?: string;
}

/**
 * The table of open requests, bounded so a caller that sends faster than the server answers gets a
 * typed error instead of growing the table without end.
 */
export class PendingCalls {
  private readonly calls = new ShortLivedMap<RequestId, PendingCall>();

  constructor(private readonly limit: number) {}

  /** Open requests now. */
  get size(): number {
    return this.calls.size;
  }

  /** Adds a call; throws {@link TooManyPendingRequestsError} when the table is full. */
  add(id: RequestId, call: PendingCall): void {
    if (this.calls.size >= this.limit) throw new TooManyPendingRequestsError(this.limit);
    this.calls.set(id, call);
  }

  /** Removes and returns the call `id`, if open. */
  take(id: RequestId): PendingCall | undefined {
    const call = this.calls.get(id);
    if (call === undefined) return undefined;
    this.calls.delete(id);
    call.dispose();
    return call;
  }

  /** The open call `id`, left open. */
  get(id: RequestId): PendingCall | undefined {
    return this.calls.get(id);
  }

  /** The call a progress token belongs to: the client uses each request's id as its token. */
  byProgressToken(token: RequestId): PendingCall | undefined {
    return this.calls.get(token);
  }

  /** The open calls that brought their own input handlers. */
  withHandlers(): PendingCall[] {
    return [...this.calls.values()].filter((call) => call.handlers !== undefined);
  }

  /** Fails every open call with `error` (the connection ended). */
  failAll(error: Error): void {
    for (const id of [...this.calls.keys()]) this.take(id)?.reject(error);
  }
}
