import {
  LATEST_MODERN_REVISION,
  type InputResponseValue,
  type Json,
  type JsonObject,
  type JsonRpcRequest,
  type ModernRevision,
  type RequestId,
  type SamplingResponse,
} from '@rondo/protocol';
import {
  LazyAbortController,
  type Exchange,
  type HandlerContext,
  type LogLevel,
  type Principal,
  type RondoServer,
} from '@rondo/core';
import { LOG_LEVEL_RANK, type RequestMeta } from './meta.js';
import type { ModernServerView } from './serverView.js';

const NO_RESPONSES: Readonly<Record<string, InputResponseValue>> = Object.freeze({});

/** Something that ends with its request: an open subscription. */
export interface RequestAttachment {
  /** Ends gracefully because the session is closing. */
  closeGracefully(): void;
}

/**
 * One modern request in flight, and the context its handler gets. Its abort signal is created only
 * when someone reads `signal` (most handlers never do); until then a cancellation is a flag, and
 * the exchange's signal is followed only from that first read. The request is its own listener for
 * the exchange's abort (`handleEvent`), so it costs one object rather than a controller plus
 * closures for cancellation, progress and logging.
 */
export class ModernRequest implements HandlerContext {
  readonly era = 'modern';
  readonly revision: ModernRevision = LATEST_MODERN_REVISION;
  readonly id: RequestId;
  readonly method: string;
  readonly params: Record<string, unknown>;
  readonly clientCapabilities: JsonObject;
  readonly clientInfo: { name: string; version: string } | undefined;
  readonly principal: Principal | undefined;
  inputResponses: Readonly<Record<string, InputResponseValue>> = NO_RESPONSES;
  requestState: Json | undefined = undefined;
  round = 1;
  /** Set by a long-lived method (subscriptions/listen) that must end gracefully on session close. */
  attachment: RequestAttachment | undefined = undefined;
  private readonly cancellation = new LazyAbortController();
  private followsExchange = false;
  private lastProgress = Number.NEGATIVE_INFINITY;
  private finished = false;

  constructor(
    message: JsonRpcRequest,
    readonly meta: RequestMeta,
    readonly exchange: Exchange,
    readonly view: ModernServerView,
  ) {
    this.id = message.id;
    this.method = message.method;
    this.params = message.params ?? {};
    this.clientCapabilities = meta.clientCapabilities;
    this.clientInfo = meta.clientInfo;
    this.principal = exchange.principal;
  }

  /** The server the request is for. */
  get server(): RondoServer {
    return this.view.server;
  }

  /** Aborted when the client cancels, the connection closes or the exchange's peer goes away. */
  get signal(): AbortSignal {
    if (!this.followsExchange && !this.finished) {
      this.followsExchange = true;
      const exchangeSignal = this.exchange.signal;
      if (exchangeSignal.aborted) this.cancellation.abort(exchangeSignal.reason);
      else exchangeSignal.addEventListener('abort', this, { once: true });
    }
    return this.cancellation.signal;
  }

  /** True once the request was cancelled (no answer and no more messages are sent for it). */
  get aborted(): boolean {
    return this.cancellation.aborted;
  }

  /** Cancels the request: its handler's signal fires and no answer is sent. */
  abort(reason?: unknown): void {
    this.cancellation.abort(reason);
  }

  /** The exchange's signal aborted: the peer can no longer receive this request's messages. */
  handleEvent(): void {
    this.cancellation.abort(this.exchange.signal.reason);
  }

  /** Sends a message that belongs to this request before its answer (nothing once it is over). */
  send(message: Parameters<Exchange['send']>[0]): void {
    if (!this.finished && !this.cancellation.aborted) this.exchange.send(message);
  }

  /** Marks the request over: nothing more is sent for it, and the exchange listener is removed. */
  release(): void {
    this.finished = true;
    if (this.followsExchange) this.exchange.signal.removeEventListener('abort', this);
  }

  progress(value: number, total?: number, message?: string): void {
    const token = this.meta.progressToken;
    // Progress must increase; a value that does not is dropped rather than sent out of order.
    if (token === undefined || !(value > this.lastProgress)) return;
    this.lastProgress = value;
    const params: JsonObject = { progressToken: token, progress: value };
    if (total !== undefined) params.total = total;
    if (message !== undefined) params.message = message;
    this.send({ jsonrpc: '2.0', method: 'notifications/progress', params });
  }

  log(level: LogLevel, data: Json, logger?: string): void {
    const threshold = this.meta.logLevel;
    if (threshold === undefined || LOG_LEVEL_RANK[level] < LOG_LEVEL_RANK[threshold]) return;
    const params: JsonObject = { level, data };
    if (logger !== undefined) params.logger = logger;
    this.send({ jsonrpc: '2.0', method: 'notifications/message', params });
  }

  elicit(): Promise<InputResponseValue> {
    return Promise.reject(serverRequestRefused('elicit'));
  }

  sample(): Promise<SamplingResponse> {
    return Promise.reject(serverRequestRefused('sample'));
  }

  listRoots(): Promise<{ uri: string; name?: string }[]> {
    return Promise.reject(serverRequestRefused('listRoots'));
  }
}

function serverRequestRefused(what: string): Error {
  return new Error(
    `ctx.${what}() is not available on the 2026-07-28 wire, which forbids server-to-client requests: ` +
      'return inputRequired([...]) from the handler and read ctx.inputResponses on the next round',
  );
}
