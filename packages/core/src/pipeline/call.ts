import type {
  Era,
  InputRequestBody,
  InputResponseValue,
  Json,
  JsonObject,
  JsonRpcMessage,
  JsonRpcRequest,
  RequestId,
  Revision,
  SamplingRequest,
  SamplingResponse,
} from '@rondo/protocol';
import { formElicitation, roots } from '@rondo/protocol';
import type { HandlerContext, LogLevel } from '../contracts/context.js';
import type { Principal } from '../contracts/definitions.js';
import { ClientRequestError } from '../errors.js';
import type { Cancellation } from '../contracts/cancellation.js';
import { LinkedCancellation } from '../linkedCancellation.js';
import { runMiddleware } from '../middleware.js';
import type { McpCall, Middleware } from '../contracts/middleware.js';
import type { RequestAttachment } from '../contracts/extension.js';
import type { Exchange } from '../contracts/transport.js';
import { LOG_LEVEL_RANK } from './logLevels.js';

/** How an era asks its client for input while a handler runs (`ctx.elicit` and friends). */
export interface ClientAsker {
  /** Sends one input request to the client and resolves with its checked answer. */
  ask(body: InputRequestBody, call: RequestCall): Promise<InputResponseValue>;
}

/**
 * What an era tells the pipeline about the requests it admits: the same for every request of a
 * legacy session (so one object serves them all), built per request in the modern era.
 */
export interface CallSetup {
  readonly era: Era;
  readonly revision: Revision;
  readonly clientCapabilities: JsonObject;
  readonly clientInfo?: { name: string; version: string } | undefined;
  /** The level log messages must reach, read at each log call; `off` or absent sends none. */
  readonly logThreshold: () => LogLevel | 'off' | undefined;
  readonly asker: ClientAsker;
  /** Ends the response of the connection's own channel, when its transport can resume it. */
  readonly closeSessionStream?: () => void;
  /**
   * Where messages of the request go once it was answered (a server-to-client request withdrawn
   * after a cancellation, say); without it they are dropped.
   */
  readonly afterAnswer?: (message: JsonRpcMessage) => void;
}

const NO_RESPONSES: Readonly<Record<string, InputResponseValue>> = Object.freeze({});
const NO_MIDDLEWARE: readonly Middleware[] = Object.freeze([]);

/**
 * One request in flight, whatever its era, and the context its handler gets. Its cancellation is
 * linked to the exchange's (the peer gone) and aborted by `notifications/cancelled` or middleware
 * stopping it; it follows the exchange, and makes an `AbortSignal`, only once someone listens.
 */
export class RequestCall implements HandlerContext, McpCall {
  readonly id: RequestId;
  readonly method: string;
  /** The request's params (`{}` when absent); validated ones once the pipeline checked them. */
  params: Record<string, unknown>;
  readonly principal: Principal | undefined;
  /** The server's middleware, outermost first; set by the pipeline. */
  middleware: readonly Middleware[] = NO_MIDDLEWARE;
  inputResponses: Readonly<Record<string, InputResponseValue>> = NO_RESPONSES;
  requestState: Json | undefined = undefined;
  round = 1;
  /** Set by a long-lived method (subscriptions/listen) that must end gracefully on close. */
  attachment: RequestAttachment | undefined = undefined;
  private readonly linked: LinkedCancellation;
  private lastProgress = Number.NEGATIVE_INFINITY;
  private answered = false;
  /** Set by {@link stop}: the signal aborted, but the request is answered. */
  private stopped = false;

  constructor(
    request: JsonRpcRequest,
    readonly exchange: Exchange,
    readonly setup: CallSetup,
    /** The token progress notifications carry; without it no progress is sent. */
    private readonly progressToken: RequestId | undefined,
  ) {
    this.id = request.id;
    this.method = request.method;
    this.params = request.params ?? {};
    this.principal = exchange.principal;
    this.linked = new LinkedCancellation(exchange.cancellation);
  }

  get era(): Era {
    return this.setup.era;
  }

  get revision(): Revision {
    return this.setup.revision;
  }

  get clientCapabilities(): JsonObject {
    return this.setup.clientCapabilities;
  }

  get clientInfo(): { name: string; version: string } | undefined {
    return this.setup.clientInfo;
  }

  get headers(): Exchange['headers'] {
    return this.exchange.headers;
  }

  get sessionId(): string | undefined {
    return this.exchange.sessionId;
  }

  get client(): string | undefined {
    return this.exchange.client;
  }

  get address(): string | undefined {
    return this.exchange.address;
  }

  /**
   * Runs one era-neutral step of the request (the handler of a round, a list page, a completion)
   * inside the server's middleware; without middleware it is the step itself.
   */
  intercept<T>(step: () => Promise<T>): Promise<T> {
    return this.middleware.length === 0 ? step() : runMiddleware(this.middleware, this, step);
  }

  /** Aborted when the client cancels, the connection closes or the exchange's peer goes away. */
  get cancellation(): Cancellation {
    return this.linked;
  }

  get signal(): AbortSignal {
    return this.linked.signal;
  }

  /** True once the request was cancelled: no answer is sent for it. */
  get cancelled(): boolean {
    return this.linked.aborted && !this.stopped;
  }

  /**
   * Aborts the handler's signal while the request is still answered (a timeout's error, say): the
   * handler stops (a Prolog goal is interrupted) and the middleware that stopped it answers.
   */
  stop(reason: Error): void {
    if (this.answered || this.linked.aborted) return;
    this.stopped = true;
    this.linked.abort(reason);
  }

  /** True once the answer went out (or the request was cancelled). */
  get done(): boolean {
    return this.answered;
  }

  /** Cancels the request: the exchange ends without an answer and the handler's signal fires. */
  cancel(reason: string): void {
    this.answer();
    this.linked.abort(new Error(reason));
  }

  /** Sends the final answer (or none) and ends the exchange; later calls do nothing. */
  answer(message?: JsonRpcMessage, disposition?: Parameters<Exchange['end']>[1]): void {
    if (this.answered) return;
    this.answered = true;
    this.linked.unlink();
    this.exchange.end(message, disposition);
  }

  /** Sends a message that belongs to this request before its answer. */
  send(message: JsonRpcMessage): void {
    if (!this.answered) this.exchange.send(message);
    else this.setup.afterAnswer?.(message);
  }

  /** Ends the response carrying this request's stream, when the transport can resume it. */
  closeStream(): void {
    if (!this.answered) this.exchange.closeStream?.();
  }

  /** Ends the response of the session's standalone stream, when the transport can resume it. */
  closeSessionStream(): void {
    this.setup.closeSessionStream?.();
  }

  /** Moves the call to its next round with the answers and state of the one before. */
  enterRound(answers: Readonly<Record<string, InputResponseValue>>, state: Json | undefined): void {
    this.inputResponses = answers;
    this.requestState = state;
    this.round += 1;
  }

  progress(value: number, total?: number, message?: string): void {
    const token = this.progressToken;
    // Progress must increase over the whole request (every round); a value that does not is dropped.
    if (token === undefined || this.answered || !(value > this.lastProgress)) return;
    this.lastProgress = value;
    const params: JsonObject = { progressToken: token, progress: value };
    if (total !== undefined) params.total = total;
    if (message !== undefined) params.message = message;
    this.send({ jsonrpc: '2.0', method: 'notifications/progress', params });
  }

  log(level: LogLevel, data: Json, logger?: string): void {
    if (!passes(this.setup.logThreshold(), level)) return;
    const params: JsonObject = { level, data };
    if (logger !== undefined) params.logger = logger;
    this.send({ jsonrpc: '2.0', method: 'notifications/message', params });
  }

  elicit(message: string, schema: JsonObject): Promise<InputResponseValue> {
    return this.setup.asker.ask(formElicitation(message, schema), this);
  }

  async sample(request: Omit<SamplingRequest, 'kind'>): Promise<SamplingResponse> {
    const answer = await this.setup.asker.ask({ kind: 'sampling', ...request }, this);
    if (answer.kind !== 'sampling_result')
      throw new ClientRequestError('The client answered sampling with another kind of result');
    return answer;
  }

  async listRoots(): Promise<{ uri: string; name?: string }[]> {
    const answer = await this.setup.asker.ask(roots(), this);
    if (answer.kind !== 'roots_result')
      throw new ClientRequestError('The client answered roots/list with another kind of result');
    return answer.roots;
  }
}

/** True when a message at `level` passes `threshold` (nothing passes `off` or no threshold). */
function passes(threshold: LogLevel | 'off' | undefined, level: LogLevel): boolean {
  if (threshold === undefined || threshold === 'off') return false;
  return LOG_LEVEL_RANK[level] >= LOG_LEVEL_RANK[threshold];
}
