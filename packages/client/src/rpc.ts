import {
  ErrorCode,
  McpError,
  isNotification,
  isRequest,
  type JsonRpcMessage,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
  type ClientCapabilities,
  type RequestId,
} from '@rondo/protocol';
import { ClientStateError, ProtocolViolationError } from './errors.js';
import { decodeFrame, type FrameLimits } from './frames.js';
import type { Cancellation } from '@rondo/core';
import type { ClientHandlers } from './handlers.js';
import {
  PendingCalls,
  type AnswerReceiver,
  type PendingCall,
  type ProgressUpdate,
} from './pending.js';
import {
  OpenRequest,
  RequestSendContext,
  type HeaderSource,
  type RequestOwner,
} from './openRequest.js';
import type { ClientTransport } from './transport.js';

/** Options of one request. */
export interface CallOptions {
  /** Aborting sends `notifications/cancelled` and rejects with {@link RequestAbortedError}. */
  readonly signal?: AbortSignal | undefined;
  /**
   * Like {@link signal}, heard without an `AbortSignal` (a gateway passing thousands of calls a
   * second through pays more for a signal per call than for the rest of the call): a handler's
   * `ctx.cancellation`, an exchange's, a `LazyAbortController`.
   */
  readonly cancellation?: Cancellation | undefined;
  /** Overrides the client's request timeout for this call (ms); 0 for none. */
  readonly timeoutMs?: number | undefined;
  /** Called with each progress notification of this call; asks the server for progress. */
  readonly onProgress?: ((progress: ProgressUpdate) => void) | undefined;
  /**
   * Answers the input this call asks for, instead of the client's handlers: its `input_required`
   * rounds (modern era), and a server request the client relates to it (legacy era: while it is
   * the only open call with handlers of its own). A gateway forwards each call's questions to the
   * caller it serves this way. Advertised capabilities still come from the client's handlers.
   */
  readonly handlers?: ClientHandlers | undefined;
  /**
   * The client capabilities this request declares instead of the client's (modern era: the
   * request's `_meta`; the legacy era declares capabilities once, at `initialize`).
   */
  readonly capabilities?: ClientCapabilities | undefined;
  /**
   * Called with the JSON-RPC id the request goes out with, before it is sent: the notifications a
   * long-lived request receives (an `events/stream`) are tagged with it.
   */
  readonly onRequestId?: ((id: RequestId) => void) | undefined;
}

/** How the session treats what the server sends besides answers. */
export interface RpcHandlers {
  /**
   * A request from the server (legacy era): resolves with the result or throws an `McpError`.
   * `relatedTo` is the open call whose response stream carried it, when the transport can tell.
   */
  request(
    message: JsonRpcRequest,
    relatedTo: PendingCall | undefined,
  ): Promise<Record<string, unknown>>;
  /** A notification from the server. */
  notification(message: JsonRpcNotification): void;
  /** Something the server sent was refused; the session goes on. */
  violation(error: Error): void;
  /** The connection ended. */
  closed(error: Error | undefined): void;
}

/** Bounds of the session. */
export interface RpcLimits extends FrameLimits {
  /** Open requests at most. Default 1024. */
  readonly maxPendingRequests?: number;
  /** A request's deadline (ms). Default 60,000. */
  readonly requestTimeoutMs?: number;
}

/**
 * JSON-RPC over one transport: ids, the table of open requests, deadlines, cancellation, progress,
 * and the server's own requests and notifications handed to {@link RpcHandlers}.
 */
export class RpcSession {
  private readonly pending: PendingCalls;
  private nextId = 1;
  private state: 'new' | 'open' | 'closed' = 'new';
  private closeError: Error | undefined;

  constructor(
    private readonly transport: ClientTransport,
    private readonly handlers: RpcHandlers,
    private readonly limits: RpcLimits = {},
  ) {
    this.pending = new PendingCalls(limits.maxPendingRequests ?? 1024);
  }

  /** Open requests now. */
  get openRequests(): number {
    return this.pending.size;
  }

  /** The open calls that brought their own input handlers (see {@link CallOptions.handlers}). */
  callsWithHandlers(): readonly PendingCall[] {
    return this.pending.withHandlers();
  }

  /** The open call whose requests carry progress token `token` (the client uses each id). */
  callByProgressToken(token: RequestId): PendingCall | undefined {
    return this.pending.byProgressToken(token);
  }

  /** Starts the transport. */
  async start(): Promise<void> {
    this.state = 'open';
    await this.transport.start({
      receive: (frame, relatedTo) => this.receive(frame, relatedTo),
      refused: (error) => this.handlers.violation(error),
      closed: (error) => this.ended(error),
    });
  }

  /**
   * Sends a request and resolves with its result; a JSON-RPC error rejects as an `McpError`.
   * `headers`, when given, makes the request's HTTP headers if its transport reads them.
   */
  request(
    method: string,
    params: Record<string, unknown> | undefined,
    options: CallOptions = {},
    headers?: HeaderSource,
  ): Promise<Record<string, unknown>> {
    return new Promise((resolve, reject) =>
      this.requestTo(method, params, { resolve, reject }, options, headers),
    );
  }

  /**
   * Sends a request and gives its answer to `receiver`, with no promise: what a gateway passing
   * thousands of calls a second through saves on each (see {@link request}).
   */
  requestTo(
    method: string,
    params: Record<string, unknown> | undefined,
    receiver: AnswerReceiver,
    options: CallOptions = {},
    headers?: HeaderSource,
  ): void {
    if (this.state !== 'open') {
      return receiver.reject(
        this.closeError ?? new ClientStateError('the client is not connected'),
      );
    }
    const id = this.nextId++;
    options.onRequestId?.(id);
    const sentParams = options.onProgress ? withProgressToken(params, id) : params;
    const message: JsonRpcRequest = { jsonrpc: '2.0', id, method };
    if (sentParams !== undefined) message.params = sentParams;
    const request = new OpenRequest(id, method, options, this.owner, receiver);
    try {
      this.pending.add(id, request);
    } catch (error) {
      return receiver.reject(error as Error);
    }
    // A deadline of 0 means none: a `subscriptions/listen` stream stays open until closed.
    if (!request.open(options.timeoutMs ?? this.limits.requestTimeoutMs ?? 60_000)) return;
    const context = new RequestSendContext(request, params, headers);
    this.transport.send(message, context).catch((error: Error) => {
      if (this.pending.take(id)) receiver.reject(error);
    });
  }

  /** Sends a notification. */
  async notify(method: string, params?: Record<string, unknown>): Promise<void> {
    if (this.state !== 'open') return;
    const message: JsonRpcNotification = { jsonrpc: '2.0', method };
    if (params !== undefined) message.params = params;
    await this.transport.send(message);
  }

  /** Closes the transport and fails every open request. */
  async close(): Promise<void> {
    if (this.state === 'closed') return;
    this.state = 'closed';
    this.closeError = new ClientStateError('the client is closed');
    this.pending.failAll(this.closeError);
    await this.transport.close();
  }

  /** What an open request needs of the session: leaving the table, and telling the server it gave up. */
  private readonly owner: RequestOwner = {
    forget: (id) => this.pending.take(id) !== undefined,
    cancel: (id, reason) =>
      void this.notify('notifications/cancelled', { requestId: id, reason }).catch(() => undefined),
  };

  private ended(error: Error | undefined): void {
    if (this.state === 'closed') return;
    this.state = 'closed';
    this.closeError = error ?? new ClientStateError('the connection closed');
    this.pending.failAll(this.closeError);
    this.handlers.closed(error);
  }

  private receive(frame: string, relatedTo: RequestId | undefined): RequestId | undefined {
    const outcome = decodeFrame(frame, this.limits);
    if (!outcome.ok) {
      this.handlers.violation(outcome.error);
      // A refused answer still ends its request, with the violation as its error.
      const call = outcome.id === undefined ? undefined : this.pending.take(outcome.id);
      call?.reject(outcome.error);
      return outcome.id;
    }
    return this.dispatch(outcome.message, relatedTo);
  }

  private dispatch(
    message: JsonRpcMessage,
    relatedTo: RequestId | undefined,
  ): RequestId | undefined {
    if (isRequest(message)) {
      const related = relatedTo === undefined ? undefined : this.pending.get(relatedTo);
      void this.answer(message, related);
      return undefined;
    }
    if (isNotification(message)) {
      this.notified(message);
      return undefined;
    }
    this.settle(message);
    return message.id ?? undefined;
  }

  private settle(response: JsonRpcResponse): void {
    const call = response.id === null ? undefined : this.pending.take(response.id);
    if (call === undefined) {
      const what = 'error' in response ? `error ${response.error.message}` : 'result';
      return this.handlers.violation(
        new ProtocolViolationError(
          `the server answered (${what}) an id the client has no request open for: ${JSON.stringify(response.id)}`,
        ),
      );
    }
    if ('error' in response) {
      const { code, message, data } = response.error;
      call.reject(new McpError(code, message, data));
    } else {
      call.resolve(response.result);
    }
  }

  private notified(message: JsonRpcNotification): void {
    if (message.method === 'notifications/progress') {
      const params = message.params ?? {};
      const token = params.progressToken;
      const call =
        typeof token === 'string' || typeof token === 'number'
          ? this.pending.byProgressToken(token)
          : undefined;
      if (call?.onProgress && typeof params.progress === 'number') {
        call.onProgress(progressOf(params));
        return;
      }
    }
    this.handlers.notification(message);
  }

  private async answer(request: JsonRpcRequest, related: PendingCall | undefined): Promise<void> {
    let response: JsonRpcResponse;
    try {
      const result = await this.handlers.request(request, related);
      response = { jsonrpc: '2.0', id: request.id, result };
    } catch (error) {
      const wire =
        error instanceof McpError
          ? error
          : new McpError(ErrorCode.InternalError, (error as Error).message);
      response = { jsonrpc: '2.0', id: request.id, error: wire.toJson() };
    }
    if (this.state === 'open') await this.transport.send(response).catch(() => undefined);
  }
}

function withProgressToken(
  params: Record<string, unknown> | undefined,
  token: RequestId,
): Record<string, unknown> {
  const meta = (params?._meta ?? {}) as Record<string, unknown>;
  return { ...params, _meta: { ...meta, progressToken: token } };
}

function progressOf(params: Record<string, unknown>): ProgressUpdate {
  const update: { progress: number; total?: number; message?: string } = {
    progress: params.progress as number,
  };
  if (typeof params.total === 'number') update.total = params.total;
  if (typeof params.message === 'string') update.message = params.message;
  return update;
}
