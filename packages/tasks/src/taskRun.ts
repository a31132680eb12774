import {
  ErrorCode,
  McpError,
  assertInputRequired,
  type InputRequest,
  type InputRequestBody,
  type InputResponseValue,
  type Json,
  type JsonObject,
  type JsonRpcMessage,
} from '@rondo/protocol';
import type { Cancellation, Exchange, Principal, ServerRuntime } from '@rondo/core';
import {
  LazyAbortController,
  RequestCall,
  assertClientCanAnswer,
  assertWithinRoundLimit,
  elicitationValidator,
  readInputResponse,
  toWireError,
  type ClientAsker,
  type RoundOperation,
} from '@rondo/core/internal';
import type { LocalTaskRun, TaskRegistry } from './taskRegistry.js';
import { TaskLimitError } from './taskLimits.js';
import { isTerminal, type TaskChange, type TaskRecord } from './taskStore.js';

/**
 * Running a round method as a task: the request's call is copied into a call of its own, detached
 * from the request's exchange (which ends when the task handle is answered), and its rounds run in
 * the background. Its signal aborts on `tasks/cancel` (heard through the store, so from any
 * replica) and at the task's TTL; its progress becomes the task's `statusMessage`; a round that
 * asks for input parks the task in `input_required` until `tasks/update` has answered every
 * request; the final result or JSON-RPC error is stored on the task.
 */

/** The first wait before storing a task's final state again, doubling up to the next. */
const FIRST_RETRY_MS = 100;
const MAX_RETRY_MS = 5_000;
/** How long a final write of a task without a TTL is retried. */
const FINAL_WRITE_PATIENCE_MS = 3_600_000;

/** What a task starts from: the operation, the request's identity, and the round it is in. */
export interface TaskLaunch<R, I extends Json> {
  readonly operation: RoundOperation<R, I>;
  readonly identity: I;
}

/** `ctx.elicit()` and friends inside a task: the task asks through round results instead. */
const TASK_ASKER: ClientAsker = {
  ask: () =>
    Promise.reject(
      new Error(
        'ctx.elicit(), ctx.sample() and ctx.listRoots() are not available inside a task: return ' +
          'inputRequired([...]) and read ctx.inputResponses when the task resumes',
      ),
    ),
};

/**
 * Stores a new task for `call` and starts running it; resolves with the stored task, so a
 * `tasks/get` for its id finds it as soon as the handle is answered. The call's answers and state
 * (from MRTR rounds before the task) carry into the task's first round.
 */
export async function startTask<R, I extends Json>(
  call: RequestCall,
  runtime: ServerRuntime,
  tasks: TaskRegistry,
  launch: TaskLaunch<R, I>,
): Promise<TaskRecord> {
  const client = call.principal ? undefined : call.exchange.client;
  const task = await tasks.store.create({
    owner: call.principal?.id,
    // An anonymous client's share is its own; stores keep shares and owners apart (`shareOf`).
    ...(client === undefined ? {} : { share: `client:${client}` }),
    ttlMs: tasks.ttlMs,
    pollIntervalMs: tasks.pollIntervalMs,
  });
  const run = new TaskRun(task, call, runtime, tasks, launch).execute();
  // The run outlives the request's response; a runtime that stops pending work with the response
  // must be told to keep it.
  call.exchange.waitUntil?.(run);
  return task;
}

/** One task running in this process. */
class TaskRun<R, I extends Json> implements LocalTaskRun, ProgressSink {
  private readonly controller = new LazyAbortController();
  private readonly call: RequestCall;
  private readonly untrack: () => void;
  private readonly expiry: ReturnType<typeof setTimeout> | undefined;
  /** Every input request key the task has used, so none is reused. */
  private readonly usedKeys = new Set<string>();
  private wake: (() => void) | undefined;
  /** Resolves the promise through which a cancellation reaches the run (see `cancelled`). */
  private readonly requestStop: (reason: Error) => void;

  constructor(
    private readonly task: TaskRecord,
    request: RequestCall,
    private readonly runtime: ServerRuntime,
    private readonly tasks: TaskRegistry,
    private readonly launch: TaskLaunch<R, I>,
  ) {
    const exchange = new TaskExchange(this, request, this.controller);
    const message = {
      jsonrpc: '2.0',
      id: request.id,
      method: request.method,
      params: request.params,
    } as const;
    const setup = {
      ...request.setup,
      asker: TASK_ASKER,
      logThreshold: () => undefined,
      afterAnswer: undefined,
    };
    // The task id is the progress token: progress reaches TaskExchange.send, which stores it.
    this.call = new RequestCall(message, exchange, setup, task.taskId);
    this.call.middleware = request.middleware;
    this.call.inputResponses = request.inputResponses;
    this.call.requestState = request.requestState;
    this.call.round = request.round;
    let requestStop: (reason: Error) => void = () => undefined;
    void new Promise<Error>((resolve) => (requestStop = resolve)).then((reason) =>
      this.stop(reason),
    );
    this.requestStop = requestStop;
    this.untrack = tasks.track(task.taskId, this);
    if (task.ttlMs !== null) {
      this.expiry = unref(setTimeout(() => this.stop(new Error('The task expired')), task.ttlMs));
    }
  }

  get stopped(): boolean {
    return this.controller.aborted;
  }

  /** Runs the rounds to the end; never rejects (every outcome is stored on the task). */
  async execute(): Promise<void> {
    const { operation, identity } = this.launch;
    try {
      for (;;) {
        const outcome = await this.unlessStopped(
          operation.invoke(this.runtime, this.call, identity),
        );
        if (this.stopped) return;
        if (outcome === undefined) throw new McpError(ErrorCode.InternalError, 'No result');
        if (outcome.kind === 'complete') {
          const result = operation.toWire(outcome.result) as JsonObject;
          await this.finish({ status: 'completed', result });
          return;
        }
        assertInputRequired(outcome.requests, outcome.state);
        assertWithinRoundLimit(operation.method, this.call.round, this.runtime.roundLimit);
        assertClientCanAnswer(outcome.requests, this.call.clientCapabilities);
        const answers = await this.ask(outcome.requests);
        if (answers === undefined) return;
        this.call.enterRound(answers, outcome.state);
      }
    } catch (failure) {
      if (this.stopped) return;
      const error = toWireError(failure);
      await this.finish({
        status: 'failed',
        error: error as unknown as JsonObject,
        statusMessage: error.message,
      });
    } finally {
      if (this.expiry !== undefined) clearTimeout(this.expiry);
      this.untrack();
    }
  }

  /**
   * Stops the run through a promise made when it started, not directly: a cancellation comes from
   * another request's handling, and a Worker lets only the request that made the run's timers and
   * signal touch them (it runs a promise's reactions in the request that made the promise).
   */
  cancelled(): void {
    this.requestStop(new Error('The task was cancelled'));
  }

  changed(): void {
    this.wake?.();
  }

  /** Stores a progress report as the task's status message. */
  progressed(value: number, total: unknown, message: unknown): void {
    if (this.stopped) return;
    const statusMessage =
      typeof message === 'string'
        ? message
        : typeof total === 'number'
          ? `${value} of ${total}`
          : `${value}`;
    this.tasks.store
      .update(this.task.taskId, { statusMessage })
      .catch((reason: unknown) => this.report(reason));
  }

  private stop(reason: Error): void {
    this.controller.abort(reason);
    this.wake?.();
  }

  /**
   * Stores the task's final state. The handler's outcome is already known, so a store that fails
   * (a shared store stalled or unreachable) is tried again with backoff until the task's TTL runs
   * out; the write is idempotent, since a terminal task never changes. It never rejects, so a
   * failure to store a result can never be mistaken for the handler's failure.
   */
  private async finish(change: TaskChange): Promise<void> {
    const { taskId, createdAt, ttlMs } = this.task;
    const deadline = createdAt + (ttlMs ?? FINAL_WRITE_PATIENCE_MS);
    for (let attempt = 0; ; attempt += 1) {
      try {
        await this.tasks.store.update(taskId, change);
        if (attempt > 0) this.runtime.log('info', `task ${taskId}: its final state is stored`);
        return;
      } catch (reason) {
        // A refusal is the store's answer, not a stall: the task fails with it instead.
        if (reason instanceof TaskLimitError && change.status === 'completed') {
          const error = toWireError(reason);
          change = {
            status: 'failed',
            error: error as unknown as JsonObject,
            statusMessage: error.message,
          };
          continue;
        }
        if (reason instanceof TaskLimitError) return this.report(reason);
        const delay = Math.min(FIRST_RETRY_MS * 2 ** attempt, MAX_RETRY_MS);
        if (attempt === 0 || Date.now() + delay >= deadline) this.report(reason);
        if (Date.now() + delay >= deadline) return;
        await new Promise<void>((resolve) => unref(setTimeout(resolve, delay)));
      }
    }
  }

  /**
   * The handler's outcome, or `undefined` as soon as the run stops: a handler that ignores its
   * signal is left behind (its promise detached, its failure ignored), so the run ends at its TTL
   * or cancellation and the registry no longer holds it.
   */
  private unlessStopped<T>(outcome: Promise<T>): Promise<T | undefined> {
    const stopped = this.controller;
    if (stopped.aborted) {
      outcome.catch(() => undefined);
      return Promise.resolve(undefined);
    }
    return new Promise<T | undefined>((resolve, reject) => {
      const stopHearing = stopped.onAbort(() => resolve(undefined));
      outcome.then(
        (value) => {
          stopHearing();
          resolve(value);
        },
        (error: Error) => {
          stopHearing();
          reject(error);
        },
      );
    });
  }

  /**
   * Parks the task in `input_required` with the round's requests (under keys never used before in
   * this task), waits until every one is answered, and reads the answers against their requests.
   * `undefined` when the task stopped (cancelled or expired) meanwhile.
   */
  private async ask(
    requests: readonly Pick<InputRequest, 'key' | 'request'>[],
  ): Promise<Record<string, InputResponseValue> | undefined> {
    const store = this.tasks.store;
    const sent: Record<string, InputRequestBody> = {};
    const keyOf = new Map<string, string>();
    for (const { key, request } of requests) {
      // Compiled now so a malformed schema fails the task here rather than at tasks/update.
      if (request.kind === 'form_elicitation') elicitationValidator(request.schema);
      let wireKey = key;
      for (let n = 2; this.usedKeys.has(wireKey); n += 1) wireKey = `${key}.${n}`;
      this.usedKeys.add(wireKey);
      keyOf.set(wireKey, key);
      sent[wireKey] = request;
    }
    await store.update(this.task.taskId, { status: 'input_required', inputRequests: sent });
    if (!(await this.answered())) return undefined;
    const raw = await store.takeAnswers(this.task.taskId);
    const answers: Record<string, InputResponseValue> = {};
    for (const [wireKey, key] of keyOf) {
      answers[key] = readInputResponse(wireKey, sent[wireKey]!, raw[wireKey]);
    }
    return answers;
  }

  /** Waits until no input request is outstanding; false when the task stopped or ended first. */
  private async answered(): Promise<boolean> {
    for (;;) {
      if (this.stopped) return false;
      const task = await this.tasks.store.get(this.task.taskId);
      if (task === undefined || isTerminal(task.status)) return false;
      if (Object.keys(task.inputRequests).length === 0) return true;
      await new Promise<void>((resolve) => (this.wake = resolve));
      this.wake = undefined;
    }
  }

  private report(reason: unknown): void {
    const text = reason instanceof Error ? reason.message : String(reason);
    this.runtime.log('error', `task ${this.task.taskId}: could not store its state: ${text}`);
  }
}

/** Lets a timer not keep the process alive (where the runtime's timers have `unref`). */
function unref<T>(timer: T): T {
  (timer as { unref?: () => void }).unref?.();
  return timer;
}

/** Where a task's progress goes. */
interface ProgressSink {
  progressed(value: number, total: unknown, message: unknown): void;
}

/**
 * The exchange of a task's call: nothing goes to a client (the request that created the task was
 * answered with its handle); progress is kept as the task's status message, log messages are
 * dropped (tasks carry none), and the cancellation is the task's own.
 */
class TaskExchange implements Exchange {
  readonly headers: Exchange['headers'];
  readonly principal: Principal | undefined;
  readonly sessionId: string | undefined;

  constructor(
    private readonly run: ProgressSink,
    request: RequestCall,
    readonly cancellation: Cancellation,
  ) {
    this.headers = request.headers;
    this.principal = request.principal;
    this.sessionId = request.sessionId;
  }

  send(message: JsonRpcMessage): void {
    if (!('method' in message) || message.method !== 'notifications/progress') return;
    const params = message.params ?? {};
    if (typeof params.progress === 'number')
      this.run.progressed(params.progress, params.total, params.message);
  }

  end(): void {
    // The task's call is never answered on a wire: its outcome is stored on the task.
  }
}
