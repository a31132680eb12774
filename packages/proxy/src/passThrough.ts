import {
  modernErrorDisposition,
  type Connection,
  type Endpoint,
  type Exchange,
  type Peer,
  type RondoServer,
} from '@rondo/core';
import { ShortLivedMap, runtimeOf, type ServerRuntime } from '@rondo/core/internal';
import {
  ErrorCode,
  McpError,
  MetaKey,
  isNotification,
  isPlainObject,
  isRequest,
  type JsonObject,
  type JsonRpcMessage,
  type JsonRpcRequest,
  type RequestId,
} from '@rondo/protocol';
import type { Client } from '@rondo/client';
import { PassedStates, passedCaller } from './passedStates.js';
import { PassedTasks, type PassedTaskLimits } from './passedTasks.js';
import { AS_IT_IS, taskShaping, type Shaping } from './passedShaping.js';
import {
  declaredTasks,
  headersAgree,
  mirrorsArguments,
  upstreamMeta,
  upstreamParams,
} from './passThroughParams.js';
import { callerFacts } from './callRecords.js';
import { ProxyProvider } from './proxyProvider.js';
import { PassedCall } from './passedCall.js';

/** The Tasks extension's methods that name a task (`tasks/get`, `tasks/update`, `tasks/cancel`). */
const TASK_METHODS: ReadonlySet<string> = new Set(['tasks/get', 'tasks/update', 'tasks/cancel']);

/**
 * Serves `endpoint` with a pass-through path in front of it: a modern caller's `tools/call` of a
 * proxied tool whose upstream is connected in the modern era at the caller's revision needs no
 * translation, so it goes to the upstream as it came (the tool's upstream name, the caller's
 * `_meta` with only the input capabilities kept) and the upstream's answer comes back as it is,
 * `input_required` rounds and their `requestState` included (a retry passes through the same
 * way, so it works on any replica that reaches the upstream). Everything the server would do
 * itself on such a call is absent on this path, so it is taken only when the server has no
 * middleware and the tool no visibility rule, scopes, task support or argument mirrored as a
 * header (`x-mcp-header`), and only when the request's HTTP headers agree with its body; every
 * other request takes the endpoint's pipeline unchanged.
 * Ids, cancellation (`notifications/cancelled`, the exchange's signal, the connection's close),
 * progress, log messages, the proxy's concurrency limit and timeout hold on both paths.
 *
 * Tasks pass through too (the Tasks extension, 2026-07-28): when the caller declares the
 * extension and the upstream announces it, the upstream decides whether the call becomes a task.
 * A task it creates is shown under an id of the gateway's (see `PassedTasks`), bound to the
 * upstream and to the caller's principal, and `tasks/get`, `tasks/update` and `tasks/cancel` of
 * that id reach the upstream with the upstream's id; an id the gateway did not give, or gave to
 * another principal, is left to the server's own tasks, which answer -32602 for it.
 */
export function withPassThrough(
  endpoint: Endpoint,
  server: RondoServer,
  limits: PassedTaskLimits = {},
): Endpoint {
  const runtime = runtimeOf(server);
  const tasks = new PassedTasks(limits);
  const states = new PassedStates(runtime.sealer);
  const restore = endpoint.restore?.bind(endpoint);
  return {
    ...endpoint,
    connect: (peer: Peer) =>
      new PassThroughConnection(endpoint.connect(peer), runtime, tasks, states),
    ...(restore
      ? {
          restore: (peer: Peer, snapshot: JsonObject) =>
            new PassThroughConnection(restore(peer, snapshot), runtime, tasks, states),
        }
      : {}),
  };
}

/** A connection that passes eligible calls through and hands everything else to `inner`. */
class PassThroughConnection implements Connection {
  /** The calls passed through now, by the caller's request id. */
  private readonly passing = new ShortLivedMap<RequestId, PassedCall>();

  constructor(
    private readonly inner: Connection,
    private readonly server: ServerRuntime,
    private readonly tasks: PassedTasks,
    private readonly states: PassedStates,
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
      if (message.method === 'tools/call' && this.passCall(message, exchange)) return;
      if (TASK_METHODS.has(message.method) && this.passTask(message, exchange)) return;
    } else if (this.passing.size > 0 && isNotification(message)) {
      if (message.method === 'notifications/cancelled' && this.cancel(message.params)) {
        exchange.end();
        return;
      }
    }
    this.inner.receive(message, exchange);
  }

  close(): void {
    for (const call of this.passing.values()) call.abort(new Error('the connection closed'));
    this.passing.clear();
    this.inner.close();
  }

  /** Aborts the passed-through call a cancellation names; false when it names none. */
  private cancel(params: Record<string, unknown> | undefined): boolean {
    const id = params?.requestId;
    const call =
      typeof id === 'string' || typeof id === 'number' ? this.passing.get(id) : undefined;
    if (call === undefined) return false;
    const reason = typeof params?.reason === 'string' ? params.reason : 'Cancelled by the client';
    call.abort(new Error(reason));
    return true;
  }

  /** Passes a `tools/call` through when it can be (true), else leaves it to the pipeline (false). */
  private passCall(request: JsonRpcRequest, exchange: Exchange): boolean {
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
    const version = meta[MetaKey.protocolVersion];
    if (!headersAgree(exchange.headers, 'tools/call', params.name, version)) return false;
    if (mirrorsArguments(entry.definition.inputSchema)) return false;
    const provider = entry.provider;
    const client = provider.passThroughClient(version);
    if (client === undefined) return false;
    const keepTasks = provider.passesTasks && declaredTasks(meta) !== undefined;
    const caller = passedCaller(exchange);
    const busy = keepTasks ? this.tasks.refusal(caller, provider.name) : undefined;
    if (busy !== undefined) {
      const answer = { jsonrpc: '2.0', id: request.id, error: busy.toJson() } as const;
      exchange.end(answer, modernErrorDisposition(busy.code));
      return true;
    }
    const sent = upstreamParams(params, meta, provider.upstreamToolName(params.name), keepTasks);
    const owner = exchange.principal?.id;
    const call = { name: params.name, arguments: params.arguments };
    const retried = params.requestState;
    this.forward(request, exchange, provider, client, sent, {
      // The caller's state is the gateway's seal around the upstream's, bound to this caller.
      ...(retried === undefined
        ? {}
        : {
            prepare: async (out) => ({
              ...out,
              requestState: await this.states.open(retried, call, caller),
            }),
          }),
      result: (result) => {
        // A task the upstream created is shown under the gateway's id for it.
        if (result.resultType === 'task' && typeof result.taskId === 'string') {
          return {
            ...result,
            taskId: this.tasks.add(provider, result.taskId, owner, result.ttlMs, caller),
          };
        }
        const state = result.requestState;
        if (typeof state !== 'string') return result;
        return this.states
          .seal(state, call, caller)
          .then((sealed) => ({ ...result, requestState: sealed }));
      },
    });
    return true;
  }

  /**
   * Passes `tasks/get`, `tasks/update` or `tasks/cancel` of a task the gateway gave its caller to
   * the upstream that holds it (true); anything else is the server's own (false): a request that
   * does not declare the extension (-32021), headers that disagree (-32020), and an id that is
   * not this caller's passed-through task (-32602, as for any unknown task).
   */
  private passTask(request: JsonRpcRequest, exchange: Exchange): boolean {
    const params = request.params;
    const taskId = params?.taskId;
    const meta = params?._meta;
    if (typeof taskId !== 'string' || !isPlainObject(meta) || declaredTasks(meta) === undefined) {
      return false;
    }
    if (this.passing.has(request.id)) return false;
    const version = meta[MetaKey.protocolVersion];
    if (!headersAgree(exchange.headers, request.method, taskId, version)) return false;
    const task = this.tasks.find(taskId, exchange.principal?.id);
    if (task === undefined) return false;
    const sent = { ...params, taskId: task.upstreamId, _meta: upstreamMeta(meta, true) };
    const shaping = taskShaping(this.tasks, task, request.method);
    const client = task.provider.passThroughClient(version);
    if (client === undefined) {
      const error = new McpError(
        ErrorCode.InternalError,
        `Upstream "${task.provider.name}" is not connected, and the task ${task.id} lives there`,
      );
      const answer = { jsonrpc: '2.0', id: request.id, error: error.toJson() } as const;
      exchange.end(answer, modernErrorDisposition(error.code));
      return true;
    }
    this.forward(request, exchange, task.provider, client, sent, shaping);
    return true;
  }

  /** Sends `sent` upstream for `request` and answers the caller with the upstream's answer, shaped. */
  private forward(
    request: JsonRpcRequest,
    exchange: Exchange,
    provider: ProxyProvider,
    client: Client,
    sent: Record<string, unknown>,
    shaping: Shaping = AS_IT_IS,
  ): void {
    const meta = request.params?._meta;
    const token = isPlainObject(meta) ? meta.progressToken : undefined;
    const progressToken =
      typeof token === 'string' || typeof token === 'number' ? token : undefined;
    const call = new PassedCall(
      request.id,
      exchange,
      provider,
      shaping,
      progressToken,
      this.settled,
    );
    this.passing.set(request.id, call);
    const caller = callerFacts(
      exchange.principal?.id,
      isPlainObject(meta) ? meta[MetaKey.clientInfo] : undefined,
    );
    call.start(client, request.method, sent, caller);
  }

  /** Forgets a passed-through call once it is answered or given up. */
  private readonly settled = (call: PassedCall): void => {
    if (this.passing.get(call.id) === call) this.passing.delete(call.id);
  };
}
