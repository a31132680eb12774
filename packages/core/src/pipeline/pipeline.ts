import {
  ErrorCode,
  McpError,
  isPlainObject,
  isRequest,
  isResponse,
  isValidId,
  type JsonRpcErrorObject,
  type JsonRpcMessage,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
  type RequestId,
} from '@rondo/protocol';
import { parseRequestParams } from '@rondo/protocol/internal';
import type { z } from 'zod';
import type { ServerRuntime } from '../runtime.js';
import type { Disposition, Exchange } from '../contracts/transport.js';
import { policyDisposition, toWireError } from '../wireError.js';
import { ShortLivedMap, ShortLivedSet } from '../shortLived.js';
import type { RequestCall } from './call.js';
import type { RequiredCapability } from '../contracts/server.js';

/** A result body before the JSON-RPC envelope: the members a method produces. */
export type WireResult = Record<string, unknown>;

/** How an era handles one method: the params it accepts and what it does with them. */
export interface EraMethod<S, P = never> {
  /** The schema the params must match (from `@rondo/protocol`'s tables); a mismatch is -32602. */
  readonly params: z.ZodType;
  /** Handles the request with its validated params and the era's state on the connection. */
  readonly handle: (call: RequestCall, params: P, scope: S) => Promise<WireResult>;
  /** The server capability the method belongs to; when the server lacks it the method is -32601. */
  readonly requires?: RequiredCapability;
  /** The request stays open until the client or the connection ends it (not counted in flight). */
  readonly longLived?: boolean;
  /**
   * The handler runs its era-neutral steps through `call.intercept` itself (round methods, lists,
   * completion), so middleware sees canonical results; otherwise the whole handler is wrapped.
   */
  readonly intercepts?: boolean;
}

/** What only an era knows, plugged into the one {@link RequestPipeline}. */
export interface EraRules<S> {
  /** The era's state on this connection, handed to every handler. */
  readonly scope: S;
  /** The era's methods; a method missing here is refused by its absence. */
  readonly methods: ReadonlyMap<string, EraMethod<S, never>>;
  /**
   * The era's checks before a request runs (its `_meta` and header rules, or the handshake). Returns
   * the call, or throws the refusal; `method` is the table entry, absent for an unknown method.
   */
  admit(
    request: JsonRpcRequest,
    exchange: Exchange,
    method: EraMethod<S, never> | undefined,
  ): RequestCall;
  /** True when the server offers a capability (cached by the era per catalog). */
  offers(capability: RequiredCapability): boolean;
  /** The result as the era's wire carries it (`resultType`, `_meta`, ...). */
  finish(result: WireResult, call: RequestCall): WireResult;
  /** A wire error as the era's wire carries it (codes it lacks restated). */
  restate(error: JsonRpcErrorObject): JsonRpcErrorObject;
  /** How a transport should report an error answer; `admitted` is false for a refusal. */
  dispositionOf(error: JsonRpcErrorObject, admitted: boolean): Disposition | undefined;
  /** A client notification other than `notifications/cancelled`. */
  notice(notification: JsonRpcNotification): void;
  /**
   * A client's response to a server-to-client request; false when no request of this connection
   * waits for it (another process serving the session may have sent it).
   */
  settle(response: JsonRpcResponse): boolean;
}

/**
 * THE request pipeline: every request of either era takes this path. The era's checks admit it,
 * its params are validated once and the typed value is passed on, the in-flight table tracks it
 * (so `notifications/cancelled` reaches it), the handler runs, the era shapes the result, and any
 * failure becomes a wire error in one place (`toWireError`, then the era's restatement).
 */
export class RequestPipeline<S> {
  // Made when a request arrives and dropped when the last one settles: an idle legacy session
  // (thousands may be live) holds neither.
  private active: ShortLivedMap<RequestId, RequestCall> | undefined;
  private longLived: ShortLivedSet<RequestCall> | undefined;

  constructor(
    private readonly runtime: ServerRuntime,
    private readonly rules: EraRules<S>,
  ) {}

  /** Requests being handled now, long-lived ones (subscriptions) aside. */
  get inFlight(): number {
    return (this.active?.size ?? 0) - (this.longLived?.size ?? 0);
  }

  /** Handles one inbound message of the era. */
  receive(message: JsonRpcMessage, exchange: Exchange): void {
    if (isRequest(message)) {
      this.receiveRequest(message, exchange);
      return;
    }
    const claimed = isResponse(message)
      ? this.rules.settle(message)
      : this.receiveNotification(message);
    exchange.end(undefined, claimed ? 'handled' : 'unclaimed');
  }

  /** Ends every request: long-lived ones gracefully, the others cancelled without an answer. */
  close(reason: string): void {
    const calls = [...(this.active?.values() ?? [])];
    this.active = undefined;
    this.longLived = undefined;
    for (const call of calls) {
      if (call.attachment) call.attachment.closeGracefully();
      else call.cancel(reason);
    }
  }

  private receiveRequest(request: JsonRpcRequest, exchange: Exchange): void {
    const method = this.rules.methods.get(request.method);
    let call: RequestCall;
    try {
      call = this.rules.admit(request, exchange, method);
      if (method === undefined) throw methodNotFound(request.method);
      if (this.active?.has(request.id)) throw duplicateId(request.id);
    } catch (failure) {
      const error = this.rules.restate(toWireError(failure));
      const disposition =
        failure instanceof RequestRefusal
          ? failure.disposition
          : this.rules.dispositionOf(error, false);
      exchange.end(errorAnswer(request.id, error), disposition);
      return;
    }
    this.run(call, method).catch((failure: unknown) => this.reportFailure(failure));
  }

  private async run(call: RequestCall, method: EraMethod<S, never>): Promise<void> {
    (this.active ??= new ShortLivedMap()).set(call.id, call);
    if (method.longLived) (this.longLived ??= new ShortLivedSet()).add(call);
    let answer: JsonRpcMessage;
    let disposition: Disposition | undefined;
    try {
      // Even a settled promise costs a microtask turn to await: skip it once the catalog is loaded.
      if (!this.runtime.isReady) await this.runtime.ready();
      const result = await this.handle(call, method);
      answer = { jsonrpc: '2.0', id: call.id, result: this.rules.finish(result, call) };
    } catch (failure) {
      const error = this.rules.restate(toWireError(failure));
      answer = errorAnswer(call.id, error);
      disposition = policyDisposition(failure) ?? this.rules.dispositionOf(error, true);
    } finally {
      this.forget(call);
    }
    // A cancelled request gets no answer: the client has stopped waiting for it.
    call.answer(call.cancelled ? undefined : answer, disposition);
  }

  /** Checks the capability and the params, then runs the handler (inside the middleware). */
  private handle(call: RequestCall, method: EraMethod<S, never>): Promise<WireResult> {
    if (method.requires !== undefined && !this.rules.offers(method.requires)) {
      throw new McpError(
        ErrorCode.MethodNotFound,
        `Method not found: ${call.method} (the server offers no ${method.requires})`,
      );
    }
    const checked = parseRequestParams(method.params, call.params);
    if (!checked.ok) throw invalidParams(call.method, checked.message);
    const params = checked.value as Record<string, unknown>;
    call.params = params;
    call.middleware = this.runtime.middleware;
    const scope = this.rules.scope;
    if (method.intercepts) return method.handle(call, params as never, scope);
    return call.intercept(() => method.handle(call, params as never, scope));
  }

  /** False for a cancellation of a request not in flight here (unclaimed); true otherwise. */
  private receiveNotification(notification: JsonRpcNotification): boolean {
    if (notification.method !== 'notifications/cancelled') {
      this.rules.notice(notification);
      return true;
    }
    const params = notification.params;
    const id = params?.requestId;
    const call = isValidId(id) ? this.active?.get(id) : undefined;
    if (call === undefined) return false;
    this.forget(call);
    const reason = isPlainObject(params) && typeof params.reason === 'string' ? params.reason : '';
    call.cancel(reason || 'Cancelled by the client');
    return true;
  }

  /** Drops a call from the in-flight table (once it settled, or was cancelled). */
  private forget(call: RequestCall): void {
    const active = this.active;
    if (active?.get(call.id) === call) active.delete(call.id);
    this.longLived?.delete(call);
    if (active?.size === 0) this.active = undefined;
    if (this.longLived?.size === 0) this.longLived = undefined;
  }

  /** A transport that throws while sending an answer cannot be answered; the failure is logged. */
  private reportFailure(failure: unknown): void {
    const reason = failure instanceof Error ? failure.message : String(failure);
    this.runtime.log('error', `could not send an answer: ${reason}`);
  }
}

/**
 * An `McpError` an era's `admit` throws to refuse a request before it runs, carrying what the
 * transport should report beyond the error itself (HTTP 400 for `refused`).
 */
export class RequestRefusal extends McpError {
  constructor(
    code: number,
    message: string,
    readonly disposition: Disposition,
    data?: unknown,
  ) {
    super(code, message, data);
  }
}

/** -32602 naming the method and the member at fault. */
export function invalidParams(method: string, detail: string, data?: unknown): McpError {
  return new McpError(ErrorCode.InvalidParams, `Invalid params for ${method}: ${detail}`, data);
}

/** -32601 for a method the era does not serve. */
export function methodNotFound(method: string, data?: unknown): McpError {
  return new McpError(ErrorCode.MethodNotFound, `Method not found: ${method}`, data);
}

function duplicateId(id: RequestId): McpError {
  return new McpError(
    ErrorCode.InvalidRequest,
    `Invalid Request: request id ${JSON.stringify(id)} is already in flight`,
  );
}

function errorAnswer(id: RequestId, error: JsonRpcErrorObject): JsonRpcMessage {
  return { jsonrpc: '2.0', id, error };
}
