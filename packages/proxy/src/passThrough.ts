import {
  modernErrorDisposition,
  type Connection,
  type Endpoint,
  type Exchange,
  type Peer,
  type RondoServer,
  type ServerRuntime,
} from '@rondo/core';
import { LazyAbortController, runtimeOf } from '@rondo/core/internal';
import {
  MetaKey,
  isMcpError,
  isNotification,
  isPlainObject,
  isRequest,
  type JsonObject,
  type JsonRpcErrorObject,
  type JsonRpcMessage,
  type JsonRpcRequest,
  type RequestId,
} from '@rondo/protocol';
import type { ProgressUpdate } from '@rondo/client';
import { ProxyProvider } from './proxyProvider.js';
import { upstreamFailure } from './roundRunner.js';

/** The client capabilities an upstream may ask a caller for (the rest stay with the gateway). */
const ASKABLE = new Set(['elicitation', 'sampling', 'roots']);

/**
 * Serves `endpoint` with a pass-through path in front of it: a modern caller's `tools/call` of a
 * proxied tool whose upstream is connected in the modern era at the caller's revision needs no
 * translation, so it goes to the upstream as it came (the tool's upstream name, the caller's
 * `_meta` with only the input capabilities kept) and the upstream's answer comes back as it is,
 * `input_required` rounds and their `requestState` included (a retry passes through the same
 * way, so it works on any replica that reaches the upstream). Everything the server would do
 * itself on such a call is absent on this path, so it is taken only when the server has no
 * middleware and the tool no visibility rule, scopes or task support; every other request takes
 * the endpoint's pipeline unchanged. Ids, cancellation (`notifications/cancelled`, the exchange's
 * signal, the connection's close), progress, log messages, the proxy's concurrency limit and
 * timeout hold on both paths.
 */
export function withPassThrough(endpoint: Endpoint, server: RondoServer): Endpoint {
  const runtime = runtimeOf(server);
  const restore = endpoint.restore?.bind(endpoint);
  return {
    ...endpoint,
    connect: (peer: Peer) => new PassThroughConnection(endpoint.connect(peer), runtime),
    ...(restore
      ? {
          restore: (peer: Peer, snapshot: JsonObject) =>
            new PassThroughConnection(restore(peer, snapshot), runtime),
        }
      : {}),
  };
}

/** A connection that passes eligible calls through and hands everything else to `inner`. */
class PassThroughConnection implements Connection {
  /** The calls passed through now, by the caller's request id. */
  private readonly passing = new Map<RequestId, LazyAbortController>();

  constructor(
    private readonly inner: Connection,
    private readonly server: ServerRuntime,
  ) {}

  get stateful(): boolean {
    return this.inner.stateful;
  }

  get inFlight(): number {
    return this.inner.inFlight + this.passing.size;
  }

  get resumesStreams(): boolean {
    return this.inner.resumesStreams ?? false;
  }

  snapshot(): JsonObject | undefined {
    return this.inner.snapshot?.();
  }

  refresh(snapshot: JsonObject): void {
    this.inner.refresh?.(snapshot);
  }

  receive(message: JsonRpcMessage, exchange: Exchange): void {
    if (isRequest(message)) {
      if (message.method === 'tools/call' && this.pass(message, exchange)) return;
    } else if (this.passing.size > 0 && isNotification(message)) {
      if (message.method === 'notifications/cancelled' && this.cancel(message.params)) {
        exchange.end();
        return;
      }
    }
    this.inner.receive(message, exchange);
  }

  close(): void {
    for (const controller of this.passing.values()) {
      controller.abort(new Error('the connection closed'));
    }
    this.passing.clear();
    this.inner.close();
  }

  /** Aborts the passed-through call a cancellation names; false when it names none. */
  private cancel(params: Record<string, unknown> | undefined): boolean {
    const id = params?.requestId;
    const controller =
      typeof id === 'string' || typeof id === 'number' ? this.passing.get(id) : undefined;
    if (controller === undefined) return false;
    const reason = typeof params?.reason === 'string' ? params.reason : 'Cancelled by the client';
    controller.abort(new Error(reason));
    return true;
  }

  /** Passes `request` through when it can be (true), else leaves it to the pipeline (false). */
  private pass(request: JsonRpcRequest, exchange: Exchange): boolean {
    const params = request.params;
    if (params === undefined || typeof params.name !== 'string') return false;
    const meta = params._meta;
    if (!isPlainObject(meta) || this.server.middleware.length > 0) return false;
    const entry = this.server.catalog.tool(params.name);
    if (
      entry === undefined ||
      !(entry.provider instanceof ProxyProvider) ||
      entry.visible !== undefined ||
      entry.scopes !== undefined ||
      entry.task.support !== 'forbidden' ||
      this.passing.has(request.id)
    ) {
      return false;
    }
    const provider = entry.provider;
    const client = provider.passThroughClient(meta[MetaKey.protocolVersion]);
    if (client === undefined) return false;

    const id = request.id;
    // Lazy controllers, heard through onAbort: an AbortSignal per call would cost more than the
    // rest of the pass-through, and most calls end without being cancelled.
    const controller = new LazyAbortController();
    this.passing.set(id, controller);
    const stopHearing = hearPeerGone(exchange, (reason) => controller.abort(reason));
    const token = meta.progressToken;
    const onProgress =
      typeof token === 'string' || typeof token === 'number'
        ? (update: ProgressUpdate) =>
            exchange.send({
              jsonrpc: '2.0',
              method: 'notifications/progress',
              params: { ...update, progressToken: token },
            })
        : undefined;
    const log = (logged: Record<string, unknown>): void =>
      exchange.send({ jsonrpc: '2.0', method: 'notifications/message', params: logged });
    const sent = upstreamParams(params, meta, provider.upstreamToolName(params.name));
    provider.passThrough(client, sent, controller, onProgress, log).then(
      (result) => this.settle(id, exchange, stopHearing, { jsonrpc: '2.0', id, result }),
      (error: unknown) =>
        this.settle(id, exchange, stopHearing, {
          jsonrpc: '2.0',
          id,
          error: wireError(provider.name, error),
        }),
    );
    return true;
  }

  /** Ends a passed-through call's exchange; a cancelled call gets no answer. */
  private settle(
    id: RequestId,
    exchange: Exchange,
    stopHearing: () => void,
    answer: JsonRpcMessage,
  ): void {
    const controller = this.passing.get(id);
    this.passing.delete(id);
    stopHearing();
    // Cancelled by the caller, or its connection closed: the caller has stopped waiting.
    if (controller === undefined || controller.aborted) return exchange.end();
    // The upstream's refusal is the gateway's: the same status the modern era gives it (400, 404).
    const code = 'error' in answer ? answer.error.code : undefined;
    exchange.end(answer, code === undefined ? undefined : modernErrorDisposition(code));
  }
}

/** Calls `listener` when the exchange's peer is gone, through `onAbort` when it has one. */
function hearPeerGone(exchange: Exchange, listener: (reason: unknown) => void): () => void {
  if (exchange.onAbort) return exchange.onAbort(listener);
  const signal = exchange.signal;
  const onAbort = (): void => listener(signal.reason);
  signal.addEventListener('abort', onAbort, { once: true });
  return () => signal.removeEventListener('abort', onAbort);
}

/**
 * The params sent upstream: the caller's, with the tool's upstream name and, when the caller
 * declared more than input capabilities (extensions, say), only those (the gateway answers for
 * the rest). Unchanged params are sent as they are, not copied.
 */
function upstreamParams(
  params: Record<string, unknown>,
  meta: Record<string, unknown>,
  name: string,
): Record<string, unknown> {
  const capabilities = meta[MetaKey.clientCapabilities];
  let kept: Record<string, unknown> | undefined;
  if (isPlainObject(capabilities)) {
    for (const key in capabilities) {
      if (ASKABLE.has(key)) continue;
      kept = {};
      for (const askable of ASKABLE) {
        if (capabilities[askable] !== undefined) kept[askable] = capabilities[askable];
      }
      break;
    }
  }
  if (kept === undefined && name === params.name) return params;
  return {
    ...params,
    name,
    ...(kept ? { _meta: { ...meta, [MetaKey.clientCapabilities]: kept } } : {}),
  };
}

/** The wire error of a failed pass-through: the upstream's own, or the gateway's precise one. */
function wireError(upstream: string, error: unknown): JsonRpcErrorObject {
  const failure = isMcpError(error) ? error : upstreamFailure(upstream, error);
  return failure.toJson();
}
