import {
  ErrorCode,
  McpError,
  isPlainObject,
  isRequest,
  isValidId,
  parseRequestParams,
  type JsonRpcErrorResponse,
  type JsonRpcMessage,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type RequestId,
} from '@rondo/protocol';
import { toWireError, type EraSession, type Exchange } from '@rondo/core';
import { checkStandardHeaders } from './headerRules.js';
import { assertSupportedVersion, readRequestMeta } from './meta.js';
import { MODERN_METHODS, type MethodEntry } from './methodTable.js';
import { ModernRequest } from './request.js';
import type { ModernServerView } from './serverView.js';

/**
 * The modern era on one connection. Every request stands alone (its `_meta` says who and what the
 * client is), so the only state is the requests in flight, by id, for `notifications/cancelled`.
 */
export class ModernSession implements EraSession {
  readonly stateful = false;
  private readonly active = new Map<RequestId, ModernRequest>();
  private counted = 0;

  constructor(private readonly view: ModernServerView) {}

  get inFlight(): number {
    return this.counted;
  }

  receive(message: JsonRpcMessage, exchange: Exchange): void {
    if (isRequest(message)) {
      this.receiveRequest(message, exchange);
      return;
    }
    if ('method' in message) this.receiveNotification(message);
    // Notifications have no answer; a response answers nothing, since this era sends no requests.
    exchange.end();
  }

  close(): void {
    for (const request of [...this.active.values()]) {
      if (request.attachment) request.attachment.closeGracefully();
      else request.abort(new Error('The connection closed'));
    }
  }

  private receiveRequest(message: JsonRpcRequest, exchange: Exchange): void {
    const entry = MODERN_METHODS.get(message.method);
    let request: ModernRequest;
    try {
      if (entry === undefined) throw this.methodNotFound(message.method);
      const meta = readRequestMeta(message.params);
      if (exchange.headers !== undefined) {
        checkStandardHeaders(
          exchange.headers,
          message.method,
          message.params,
          meta.protocolVersion,
        );
      }
      assertSupportedVersion(meta.protocolVersion, this.view.accepted, this.view.advertised);
      if (this.active.has(message.id)) {
        throw new McpError(
          ErrorCode.InvalidRequest,
          `Invalid Request: request id ${JSON.stringify(message.id)} is already in flight`,
        );
      }
      request = new ModernRequest(message, meta, exchange, this.view);
    } catch (failure) {
      exchange.end(errorAnswer(message.id, failure));
      return;
    }
    this.run(request, entry).catch(this.reportFailure);
  }

  /** A transport that throws while sending an answer cannot be answered; the failure is logged. */
  private readonly reportFailure = (failure: unknown): void => {
    const reason = failure instanceof Error ? failure.message : String(failure);
    this.view.server.log('error', `modern era: could not send an answer: ${reason}`);
  };

  private async run(request: ModernRequest, entry: MethodEntry): Promise<void> {
    this.active.set(request.id, request);
    if (!entry.longLived) this.counted += 1;
    let answer: JsonRpcMessage | undefined;
    try {
      // Even a settled promise costs a microtask turn to await: skip it once the catalog is loaded.
      if (!this.view.server.isReady) await this.view.server.ready();
      this.view.assertOffered(request.method, entry.requires);
      const checked = parseRequestParams(entry.params, request.params);
      if (!checked.ok)
        throw new McpError(ErrorCode.InvalidParams, `Invalid params: ${checked.message}`);
      const result = await entry.handle(request);
      if (!request.aborted) {
        answer = { jsonrpc: '2.0', id: request.id, result: this.view.finish(result) };
      }
    } catch (failure) {
      if (!request.aborted) answer = errorAnswer(request.id, failure);
    } finally {
      this.active.delete(request.id);
      if (!entry.longLived) this.counted -= 1;
      request.release();
    }
    // A cancelled request gets no answer: the client has stopped waiting for it.
    request.exchange.end(answer);
  }

  private receiveNotification(message: JsonRpcNotification): void {
    if (message.method !== 'notifications/cancelled') return;
    const params = message.params;
    const id = params?.requestId;
    if (!isValidId(id)) return;
    const reason =
      isPlainObject(params) && typeof params.reason === 'string'
        ? params.reason
        : 'Cancelled by the client';
    this.active.get(id)?.abort(new Error(reason));
  }

  private methodNotFound(method: string): McpError {
    return new McpError(ErrorCode.MethodNotFound, `Method not found: ${method}`, {
      method,
      supported: this.view.advertised,
    });
  }
}

function errorAnswer(id: RequestId, failure: unknown): JsonRpcErrorResponse {
  return { jsonrpc: '2.0', id, error: toWireError(failure) };
}
