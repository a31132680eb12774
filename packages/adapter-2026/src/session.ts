import {
  LATEST_MODERN_REVISION,
  type JsonRpcErrorObject,
  type JsonRpcMessage,
  type JsonRpcRequest,
} from '@rondo/protocol';
import {
  modernErrorDisposition,
  type Disposition,
  type EraSession,
  type Exchange,
} from '@rondo/core';
import {
  RequestCall,
  RequestPipeline,
  extensionNameParam,
  methodNotFound,
  withExtensionMethods,
  type ClientAsker,
  type EraMethod,
  type EraRules,
  type RequiredCapability,
  type WireResult,
} from '@rondo/core/internal';
import { checkStandardHeaders } from './headerRules.js';
import { assertSupportedVersion, readRequestMeta } from './meta.js';
import { missingMetaMessage } from './sessionless.js';
import { MODERN_METHODS } from './methodTable.js';
import type { ModernServerView } from './serverView.js';

/** Codes a modern client must see refused at the transport level (HTTP 400). */

/** The 2026-07-28 wire forbids server-to-client requests: `ctx.elicit` and friends refuse. */
const NO_CLIENT_REQUESTS: ClientAsker = {
  ask: () =>
    Promise.reject(
      new Error(
        'ctx.elicit(), ctx.sample() and ctx.listRoots() are not available on the 2026-07-28 wire, ' +
          'which forbids server-to-client requests: return inputRequired([...]) from the handler ' +
          'and read ctx.inputResponses on the next round',
      ),
    ),
};

/**
 * The modern era's rules for the core pipeline. Every request stands alone (its `_meta` says who
 * and what the client is), so the only state is the server view shared by all connections.
 */
class ModernRules implements EraRules<ModernServerView> {
  readonly methods: ReadonlyMap<string, EraMethod<ModernServerView, never>>;

  constructor(readonly scope: ModernServerView) {
    this.methods = withExtensionMethods(MODERN_METHODS, scope.runtime, 'modern');
  }

  admit(
    request: JsonRpcRequest,
    exchange: Exchange,
    method: EraMethod<ModernServerView, never> | undefined,
  ): RequestCall {
    if (method === undefined) {
      throw methodNotFound(request.method, {
        method: request.method,
        supported: this.scope.advertised,
      });
    }
    const meta = readRequestMeta(request.params, () =>
      missingMetaMessage(exchange.headers, this.scope.accepted, this.scope.advertised),
    );
    // The version first, as Logtalk's mcp_server checks it: a client asking for a revision this
    // server does not serve learns which ones it does (-32022), whatever its headers say.
    assertSupportedVersion(meta.protocolVersion, this.scope.accepted, this.scope.advertised);
    if (exchange.headers !== undefined) {
      const nameParam = extensionNameParam(this.scope.runtime, request.method);
      checkStandardHeaders(
        exchange.headers,
        request.method,
        request.params,
        meta.protocolVersion,
        nameParam,
      );
    }
    const logLevel = meta.logLevel;
    const setup = {
      era: 'modern',
      revision: LATEST_MODERN_REVISION,
      clientCapabilities: meta.clientCapabilities,
      clientInfo: meta.clientInfo,
      logThreshold: () => logLevel,
      asker: NO_CLIENT_REQUESTS,
    } as const;
    return new RequestCall(request, exchange, setup, meta.progressToken);
  }

  offers(capability: RequiredCapability): boolean {
    return this.scope.offers(capability);
  }

  finish(result: WireResult): WireResult {
    return this.scope.finish(result);
  }

  restate(error: JsonRpcErrorObject): JsonRpcErrorObject {
    return error;
  }

  dispositionOf(error: JsonRpcErrorObject, admitted: boolean): Disposition | undefined {
    const disposition = modernErrorDisposition(error.code);
    return !admitted && disposition === undefined ? 'refused' : disposition;
  }

  notice(): void {
    // The only client notification of this era is notifications/cancelled, which the pipeline reads.
  }

  settle(): boolean {
    // This era sends no requests, so a response answers nothing; no other process waits for it.
    return true;
  }
}

/** The rules of each server view, shared by its connections (they hold no per-connection state). */
const rulesOf = new WeakMap<ModernServerView, ModernRules>();

/** The modern era on one connection: the core pipeline with the modern rules. */
export class ModernSession implements EraSession {
  readonly stateful = false;
  private readonly pipeline: RequestPipeline<ModernServerView>;

  constructor(view: ModernServerView) {
    let rules = rulesOf.get(view);
    if (rules === undefined) {
      rules = new ModernRules(view);
      rulesOf.set(view, rules);
    }
    this.pipeline = new RequestPipeline(view.runtime, rules);
  }

  get inFlight(): number {
    return this.pipeline.inFlight;
  }

  receive(message: JsonRpcMessage, exchange: Exchange): void {
    this.pipeline.receive(message, exchange);
  }

  close(): void {
    this.pipeline.close('The connection closed');
  }
}
