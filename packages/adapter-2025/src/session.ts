import type {
  Disposition,
  EraSession,
  Exchange,
  Peer,
  ServerChange,
  ServerLogMessage,
} from '@rondo/core';
import {
  RequestPipeline,
  RequestRefusal,
  methodNotFound,
  type CatalogMemo,
  type EraMethod,
  type EraRules,
  type RequestCall,
  type WireResult,
  type ServerRuntime,
} from '@rondo/core/internal';
import {
  ErrorCode,
  McpError,
  isLegacyRevision,
  isModernRevision,
  type JsonObject,
  type JsonRpcErrorObject,
  type JsonRpcMessage,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
} from '@rondo/protocol';
import {
  announceChange,
  relayLog,
  type ChangeListener,
  type SessionChanges,
} from './changeNotifications.js';
import { openCall } from './handlerContext.js';
import { BEFORE_INITIALIZE, legacyMethodsOf } from './methods.js';
import type { ResolvedLegacyOptions } from './options.js';
import { SessionState } from './sessionState.js';
import { restoreInto, snapshotOf } from './sessionSnapshot.js';

/** What the sessions of one server share. */
export interface ServerShared {
  /** List pages in each revision's shape. */
  readonly lists: CatalogMemo<WireResult>;
  readonly changes: SessionChanges;
}

/** The first legacy revision whose clients resume a stream the server closed early. */
const RESUMING_REVISION = '2025-11-25';

/** Codes of the modern era that must never reach a legacy peer. */
const MODERN_ONLY_CODES: ReadonlySet<number> = new Set([
  ErrorCode.HeaderMismatch,
  ErrorCode.UnsupportedProtocolVersion,
]);

/** The legacy era's rules for the core pipeline: the handshake comes before everything else. */
class LegacyRules implements EraRules<SessionState> {
  readonly methods: ReadonlyMap<string, EraMethod<SessionState, never>>;
  closed = false;

  constructor(
    readonly scope: SessionState,
    private readonly peer: Peer,
  ) {
    this.methods = legacyMethodsOf(scope.runtime);
  }

  admit(
    request: JsonRpcRequest,
    exchange: Exchange,
    method: EraMethod<SessionState, never> | undefined,
  ): RequestCall {
    if (this.closed) throw invalidRequest('the session is closed');
    if (!this.scope.negotiated && !BEFORE_INITIALIZE.has(request.method)) {
      // Outside a session this request cannot be served at all: the transport's bad request.
      throw new RequestRefusal(
        ErrorCode.InvalidRequest,
        `Invalid Request: the session is not initialized; send initialize before ${request.method}`,
        'refused',
      );
    }
    if (method === undefined) throw methodNotFound(request.method);
    const version = exchange.headers?.['mcp-protocol-version'];
    if (typeof version === 'string' && !isLegacyRevision(version) && !isModernRevision(version)) {
      throw new RequestRefusal(
        ErrorCode.InvalidRequest,
        `Invalid Request: unsupported MCP-Protocol-Version "${version}"`,
        'refused',
      );
    }
    return openCall(this.scope, request, exchange, this.peer);
  }

  offers(capability: string): boolean {
    // Legacy methods answer whatever the server offers (an empty list, say): no list is hidden.
    // Completion is the exception: without the capability there is nothing to complete (-32601).
    if (capability !== 'completions') return true;
    return this.scope.session.serverCapabilities.completions !== undefined;
  }

  finish(result: WireResult): WireResult {
    return result;
  }

  /** A wire error fit for a legacy peer: modern-only codes are restated. */
  restate(error: JsonRpcErrorObject): JsonRpcErrorObject {
    if (error.code === ErrorCode.MissingClientCapability) {
      return { code: ErrorCode.InvalidRequest, message: `Invalid Request: ${error.message}` };
    }
    if (!MODERN_ONLY_CODES.has(error.code)) return error;
    return { code: ErrorCode.InternalError, message: error.message };
  }

  /**
   * Every error of a session travels in an ordinary answer; the two refusals the transport must
   * report (a request outside a session, an unknown revision header) are `RequestRefusal`s.
   */
  dispositionOf(): Disposition | undefined {
    return undefined;
  }

  notice(notification: JsonRpcNotification): void {
    // Other client notifications (roots/list_changed, progress) need no action here.
    if (notification.method === 'notifications/initialized') this.scope.clientReady = true;
  }

  settle(response: JsonRpcResponse): boolean {
    // An answer to one of our requests; one we did not send (or one that timed out) is unclaimed.
    return this.scope.clientRequests.settle(response);
  }
}

/**
 * One legacy session on one connection: `initialize`, then the legacy methods, the client's answers
 * to server-to-client requests, cancellation, and change notifications. It becomes `stateful` once
 * `initialize` succeeded, so a transport keeps it (HTTP: behind an `Mcp-Session-Id`).
 */
export class LegacySession implements EraSession, ChangeListener {
  private readonly state: SessionState;
  private readonly rules: LegacyRules;
  private readonly pipeline: RequestPipeline<SessionState>;

  constructor(
    runtime: ServerRuntime,
    private readonly peer: Peer,
    options: ResolvedLegacyOptions,
    private readonly shared: ServerShared,
  ) {
    this.state = new SessionState(runtime, options, shared.lists);
    this.rules = new LegacyRules(this.state, peer);
    this.pipeline = new RequestPipeline(runtime, this.rules);
    shared.changes.add(this);
  }

  /** A change of the server, told to this session's client when it concerns it. */
  announce(change: ServerChange, changeId: string): void {
    announceChange(this.state, this.peer, change, changeId);
  }

  /** A server-wide message, told to this session's client when its log level admits it. */
  relay(message: ServerLogMessage): void {
    relayLog(this.state, this.peer, message);
  }

  /** The session's state as plain JSON once `initialize` settled it. */
  snapshot(): JsonObject | undefined {
    return this.stateful ? snapshotOf(this.state) : undefined;
  }

  /** Takes the state another process saved for this session (or rebuilds a restored one). */
  refresh(snapshot: JsonObject): void {
    restoreInto(this.state, snapshot);
  }

  get stateful(): boolean {
    return this.state.negotiated !== undefined && !this.rules.closed;
  }

  get inFlight(): number {
    return this.pipeline.inFlight;
  }

  /** From 2025-11-25 on, a client resumes a stream the server closed (SSE polling, SEP-1699). */
  get resumesStreams(): boolean {
    const revision = this.state.negotiated?.revision;
    return revision !== undefined && revision >= RESUMING_REVISION && !this.rules.closed;
  }

  receive(message: JsonRpcMessage, exchange: Exchange): void {
    this.pipeline.receive(message, exchange);
  }

  close(): void {
    if (this.rules.closed) return;
    this.rules.closed = true;
    this.shared.changes.delete(this);
    this.pipeline.close('The session closed');
    this.state.clientRequests.rejectAll('The session closed before the client answered');
    this.state.clearSubscriptions();
  }
}

function invalidRequest(reason: string): McpError {
  return new McpError(ErrorCode.InvalidRequest, `Invalid Request: ${reason}`);
}
