import {
  toWireError,
  type CatalogMemo,
  type EraSession,
  type Exchange,
  type Peer,
  type RondoServer,
} from '@rondo/core';
import {
  ErrorCode,
  errorResponse,
  isPlainObject,
  isResponse,
  resultResponse,
  type JsonRpcErrorObject,
  type JsonRpcMessage,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type RequestId,
} from '@rondo/protocol';
import { LegacyCall } from './call.js';
import { announceChange } from './changeNotifications.js';
import { BEFORE_INITIALIZE, LEGACY_METHODS } from './methods.js';
import type { ResolvedLegacyOptions } from './options.js';
import { checkRequestParams } from './params.js';
import { SessionState } from './sessionState.js';

/** Codes of the modern era that must never reach a legacy peer. */
const MODERN_ONLY_CODES: ReadonlySet<number> = new Set([
  ErrorCode.HeaderMismatch,
  ErrorCode.MissingClientCapability,
  ErrorCode.UnsupportedProtocolVersion,
]);

/**
 * One legacy session on one connection: `initialize`, then the legacy methods, the client's answers
 * to server-to-client requests, cancellation, and change notifications. It becomes `stateful` once
 * `initialize` succeeded, so a transport keeps it (HTTP: behind an `Mcp-Session-Id`).
 */
export class LegacySession implements EraSession {
  private readonly state: SessionState;
  private readonly calls = new Map<RequestId, LegacyCall>();
  private readonly stopWatching: () => void;
  private closed = false;

  constructor(
    server: RondoServer,
    private readonly peer: Peer,
    options: ResolvedLegacyOptions,
    lists: CatalogMemo<Readonly<Record<string, unknown>>>,
  ) {
    this.state = new SessionState(server, options, lists);
    this.stopWatching = server.onChange((change) => announceChange(this.state, peer, change));
  }

  get stateful(): boolean {
    return this.state.negotiated !== undefined && !this.closed;
  }

  get inFlight(): number {
    return this.calls.size;
  }

  receive(message: JsonRpcMessage, exchange: Exchange): void {
    if (isResponse(message)) {
      // An answer to one of our requests; one we did not send (or one that timed out) is dropped.
      this.state.clientRequests.settle(message);
      exchange.end();
    } else if ('id' in message) {
      void this.serve(message, exchange);
    } else {
      this.notice(message);
      exchange.end();
    }
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.stopWatching();
    for (const call of this.calls.values()) call.cancel('The session closed');
    this.calls.clear();
    this.state.clientRequests.rejectAll('The session closed before the client answered');
    this.state.subscriptions.clear();
  }

  private async serve(request: JsonRpcRequest, exchange: Exchange): Promise<void> {
    const refusal = this.refusalFor(request);
    if (refusal) {
      exchange.end(errorResponse(request.id, refusal.code, refusal.message));
      return;
    }
    const call = new LegacyCall(request, exchange, this.peer);
    this.calls.set(request.id, call);
    try {
      checkRequestParams(request.method, request.params);
      // Even a settled promise costs a microtask turn to await: skip it once the catalog is loaded.
      if (!this.state.server.isReady) await this.state.server.ready();
      const result = await LEGACY_METHODS.get(request.method)!(this.state, call);
      call.finish(resultResponse(request.id, result));
    } catch (failure) {
      const error = legacyWireError(failure);
      call.finish(errorResponse(request.id, error.code, error.message, error.data));
    } finally {
      if (this.calls.get(request.id) === call) this.calls.delete(request.id);
    }
  }

  /** Why a request cannot be served at all, before any handler runs. */
  private refusalFor(request: JsonRpcRequest): JsonRpcErrorObject | undefined {
    if (this.closed)
      return { code: ErrorCode.InvalidRequest, message: 'Invalid Request: the session is closed' };
    if (!this.state.negotiated && !BEFORE_INITIALIZE.has(request.method)) {
      return {
        code: ErrorCode.InvalidRequest,
        message: `Invalid Request: the session is not initialized; send initialize before ${request.method}`,
      };
    }
    if (!LEGACY_METHODS.has(request.method)) {
      return { code: ErrorCode.MethodNotFound, message: `Method not found: ${request.method}` };
    }
    if (this.calls.has(request.id)) {
      return {
        code: ErrorCode.InvalidRequest,
        message: `Invalid Request: request id ${JSON.stringify(request.id)} is already in use`,
      };
    }
    return undefined;
  }

  private notice(notification: JsonRpcNotification): void {
    switch (notification.method) {
      case 'notifications/initialized':
        this.state.clientReady = true;
        return;
      case 'notifications/cancelled': {
        const params = notification.params;
        const requestId = isPlainObject(params) ? params.requestId : undefined;
        const call =
          typeof requestId === 'string' || typeof requestId === 'number'
            ? this.calls.get(requestId)
            : undefined;
        if (call) {
          this.calls.delete(call.request.id);
          call.cancel(
            typeof params?.reason === 'string' ? params.reason : 'Cancelled by the client',
          );
        }
        return;
      }
      default:
        // Other client notifications (roots/list_changed, progress) need no action here.
        return;
    }
  }
}

/** A failure as a wire error fit for a legacy peer: modern-only codes become -32603. */
function legacyWireError(failure: unknown): JsonRpcErrorObject {
  const error = toWireError(failure);
  if (!MODERN_ONLY_CODES.has(error.code)) return error;
  return { code: ErrorCode.InternalError, message: error.message };
}
