import { TASKS_EXTENSION, isPlainObject, type TaskStatus } from '@rondo/protocol';
import type { ClientCore } from './client.js';
import { ClientError, ProtocolViolationError, RequestAbortedError } from './errors.js';
import { answerInput } from './handlers.js';
import type { CallOptions } from './rpc.js';
import type { CallToolResult } from './types.js';

/** A task's state as the server reports it. */
export interface TaskState {
  readonly taskId: string;
  readonly status: TaskStatus;
  readonly statusMessage?: string | undefined;
  /** How long the server suggests waiting between polls (ms). */
  readonly pollIntervalMs?: number | undefined;
  readonly [member: string]: unknown;
}

/** A task ended failed or cancelled; `state` is its last state. */
export class TaskEndedError extends ClientError {
  override readonly code: string = 'client.task-ended';
  override readonly name = 'TaskEndedError';
  constructor(readonly state: TaskState) {
    super(
      `task ${state.taskId} ended ${state.status}${state.statusMessage ? `: ${state.statusMessage}` : ''}`,
    );
  }
}

/** How {@link ToolTask.result} waits. */
export interface TaskWaitOptions {
  readonly signal?: AbortSignal | undefined;
  /** The first pause between polls when the server suggests none (ms). Default 100; doubles up to 2,000. */
  readonly initialPollMs?: number;
}

const TERMINAL = new Set<TaskStatus>(['completed', 'failed', 'cancelled']);

/**
 * A tool call running as a task: in the modern era through the Tasks extension
 * (`io.modelcontextprotocol/tasks`: `tasks/get`, `tasks/update`, `tasks/cancel`), in 2025-11-25
 * through the call's `task` member (`tasks/get`, `tasks/result`, `tasks/cancel`). Input the task
 * asks for is answered with the client's handlers in both.
 */
export class ToolTask {
  private constructor(
    private readonly core: ClientCore,
    /** The state the server answered the call with. */
    readonly created: TaskState,
  ) {}

  /** The task's id. */
  get taskId(): string {
    return this.created.taskId;
  }

  /** Calls `name` as a task. */
  static async start(
    core: ClientCore,
    name: string,
    args: Record<string, unknown>,
    options: CallOptions & { ttlMs?: number } = {},
  ): Promise<ToolTask> {
    const params: Record<string, unknown> = { name, arguments: args };
    if (core.era === 'legacy') {
      params.task = options.ttlMs === undefined ? {} : { ttl: options.ttlMs };
      // A task's creation is checked here, not as a finished call.
      const result = await core.request('tools/call', params, options, { checkAs: '' });
      return new ToolTask(core, stateOf(result.task));
    }
    const result = await core.request('tools/call', params, options, {
      extensions: { [TASKS_EXTENSION]: {} },
    });
    if (result.resultType !== 'task') {
      throw new ProtocolViolationError(
        `tool ${name} was called as a task but answered without one`,
      );
    }
    return new ToolTask(core, stateOf(result));
  }

  /** The task's current state (`tasks/get`). */
  async state(options?: CallOptions): Promise<TaskState> {
    return stateOf(await this.request('tasks/get', options));
  }

  /**
   * Waits for the task to finish, polling with backoff (or at the interval the server suggests),
   * answering input it asks for, and resolves with the tool's result. A failed or cancelled task
   * rejects with {@link TaskEndedError}.
   */
  async result(options: TaskWaitOptions = {}): Promise<CallToolResult> {
    let pause = options.initialPollMs ?? 100;
    for (;;) {
      const state = await this.state({ signal: options.signal });
      if (state.status === 'completed') return this.finalResult(state, options);
      if (TERMINAL.has(state.status)) throw new TaskEndedError(state);
      if (state.status === 'input_required') {
        if (this.core.era === 'legacy') return this.finalResult(state, options);
        await this.answer(state, options.signal);
        continue;
      }
      await sleep(state.pollIntervalMs ?? pause, options.signal);
      pause = Math.min(pause * 2, 2000);
    }
  }

  /** Asks the server to cancel the task. */
  async cancel(options?: CallOptions): Promise<void> {
    await this.request('tasks/cancel', options);
  }

  private request(method: string, options?: CallOptions): Promise<Record<string, unknown>> {
    const extensions = this.core.era === 'modern' ? { [TASKS_EXTENSION]: {} } : undefined;
    return this.core.request(
      method,
      { taskId: this.taskId },
      options,
      extensions ? { extensions } : {},
    );
  }

  /** The final result: inline in the modern era, from `tasks/result` in 2025-11-25 (which also carries its input requests). */
  private async finalResult(state: TaskState, options: TaskWaitOptions): Promise<CallToolResult> {
    if (this.core.era === 'legacy') {
      const result = await this.request('tasks/result', { signal: options.signal, timeoutMs: 0 });
      return result as CallToolResult;
    }
    if (!isPlainObject(state.result)) {
      throw new ProtocolViolationError(`task ${this.taskId} completed without a result`);
    }
    return state.result as CallToolResult;
  }

  private async answer(state: TaskState, signal: AbortSignal | undefined): Promise<void> {
    const requests = isPlainObject(state.inputRequests) ? state.inputRequests : {};
    const inputResponses: Record<string, unknown> = {};
    for (const [key, request] of Object.entries(requests)) {
      const { method, params } = request as { method: string; params?: unknown };
      inputResponses[key] = await answerInput(this.core.clientHandlers, method, params, {
        era: 'modern',
        signal,
      });
    }
    await this.core.request(
      'tasks/update',
      { taskId: this.taskId, inputResponses },
      { signal },
      { extensions: { [TASKS_EXTENSION]: {} } },
    );
  }
}

function stateOf(value: unknown): TaskState {
  if (
    !isPlainObject(value) ||
    typeof value.taskId !== 'string' ||
    typeof value.status !== 'string'
  ) {
    throw new ProtocolViolationError('the server sent a task without taskId and status');
  }
  return value as unknown as TaskState;
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new RequestAbortedError('tasks/get', signal.reason));
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(new RequestAbortedError('tasks/get', signal.reason));
      },
      { once: true },
    );
  });
}
