import type { RequestId } from '@rondo/protocol';
import type { Cancellation } from '@rondo/core';
import { LazyAbortController } from '@rondo/core/internal';
import { RequestAbortedError, RequestTimeoutError } from './errors.js';
import type { ClientHandlers } from './handlers.js';
import type { AnswerReceiver, PendingCall, ProgressUpdate } from './pending.js';
import type { SendContext } from './transport.js';

/** The HTTP headers of one outbound request, computed only if its transport reads them. */
export interface HeaderSource {
  /** The headers of a request of `method` with `params` (as the caller gave them). */
  headersFor(method: string, params: Record<string, unknown> | undefined): Record<string, string>;
}

/** What a request reads of its caller's options (a `CallOptions`). */
export interface CallerOptions {
  readonly onProgress?: ((progress: ProgressUpdate) => void) | undefined;
  readonly handlers?: ClientHandlers | undefined;
  readonly signal?: AbortSignal | undefined;
  readonly cancellation?: Cancellation | undefined;
}

/** What an {@link OpenRequest} needs from the session that owns it. */
export interface RequestOwner {
  /** Removes the request from the table of open ones (disposing it); false when it had left. */
  forget(id: RequestId): boolean;
  /** Tells the server the client gave up on `id` (`notifications/cancelled`). */
  cancel(id: RequestId, reason: string): void;
}

/**
 * One request the client has sent and not yet seen answered: how it settles, its deadline and
 * the caller's cancellation. A class, so that a request costs one object and one listener instead
 * of a handful of closures: a gateway passing thousands of calls a second through pays for each
 * allocation. The caller's `signal` is heard as an event listener object (`handleEvent`).
 */
export class OpenRequest implements PendingCall {
  readonly onProgress: ((progress: ProgressUpdate) => void) | undefined;
  readonly handlers: ClientHandlers | undefined;
  readonly signal: AbortSignal | undefined;
  /** Aborted when the client gives up; made when the transport reads it, or at the giving up. */
  private givenUp: LazyAbortController | undefined = undefined;
  private timer: NodeJS.Timeout | undefined = undefined;
  private stopHearing: (() => void) | undefined = undefined;

  constructor(
    readonly id: RequestId,
    readonly method: string,
    private readonly options: CallerOptions,
    private readonly owner: RequestOwner,
    private readonly receiver: AnswerReceiver,
  ) {
    this.onProgress = options.onProgress;
    this.handlers = options.handlers;
    this.signal = options.signal;
  }

  resolve(result: Record<string, unknown>): void {
    this.receiver.resolve(result);
  }

  reject(error: Error): void {
    this.receiver.reject(error);
  }

  /**
   * Starts the deadline (`timeoutMs`, 0 for none) and hears the caller's cancellation; a request
   * cancelled already is given up at once (false: do not send it).
   */
  open(timeoutMs: number): boolean {
    if (timeoutMs > 0) this.timer = setTimeout(timeOut, timeoutMs, this, timeoutMs);
    const { signal, cancellation } = this.options;
    if (signal?.aborted || cancellation?.aborted) {
      this.handleEvent();
      return false;
    }
    signal?.addEventListener('abort', this, { once: true });
    if (cancellation) this.stopHearing = cancellation.onAbort(() => this.handleEvent());
    return true;
  }

  /** The caller cancelled (its signal's `abort` event, or its cancellation). */
  handleEvent(): void {
    const { signal, cancellation } = this.options;
    this.giveUp(new RequestAbortedError(this.method, signal?.reason ?? cancellation?.reason));
  }

  /** Aborted when the client gives up on the request: what the transport's send context carries. */
  get giveUpSignal(): AbortSignal {
    return (this.givenUp ??= new LazyAbortController()).signal;
  }

  /** Ends the request from the client's side: the server is told, the caller gets `error`. */
  giveUp(error: Error): void {
    if (!this.owner.forget(this.id)) return;
    (this.givenUp ??= new LazyAbortController()).abort(error);
    this.owner.cancel(this.id, error.message);
    this.reject(error);
  }

  /** Frees the deadline and the cancellation listeners. */
  dispose(): void {
    clearTimeout(this.timer);
    this.options.signal?.removeEventListener('abort', this);
    this.stopHearing?.();
  }
}

function timeOut(request: OpenRequest, timeoutMs: number): void {
  request.giveUp(new RequestTimeoutError(request.method, timeoutMs));
}

/**
 * What the transport reads of one request beyond the message: the signal and the HTTP headers,
 * each made only on first read (stdio reads neither).
 */
export class RequestSendContext implements SendContext {
  private computed: Readonly<Record<string, string>> | undefined = undefined;

  constructor(
    private readonly request: OpenRequest,
    private readonly params: Record<string, unknown> | undefined,
    private readonly headerSource: HeaderSource | undefined,
  ) {}

  get signal(): AbortSignal {
    return this.request.giveUpSignal;
  }

  get headers(): Readonly<Record<string, string>> | undefined {
    if (this.headerSource === undefined) return undefined;
    return (this.computed ??= this.headerSource.headersFor(this.request.method, this.params));
  }
}
