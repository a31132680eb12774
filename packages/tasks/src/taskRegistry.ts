import type { Principal } from '@rondo/core';
import { MemoryTaskStore, type MemoryTaskStoreOptions } from './memoryTaskStore.js';
import type { TaskEvent, TaskRecord, TaskStore } from './taskStore.js';

/**
 * How a server keeps tasks (`server.use(tasks({ ... }))`). Every member is optional; the
 * shares and byte budgets (`maxTasksPerOwner`, `maxTaskResultBytes`, `maxTaskBytesPerOwner`,
 * `maxTaskBytes`) bound the default store, as {@link MemoryTaskStoreOptions} describes.
 */
export interface TaskOptions extends Pick<
  MemoryTaskStoreOptions,
  'maxTasksPerOwner' | 'maxTaskResultBytes' | 'maxTaskBytesPerOwner' | 'maxTaskBytes'
> {
  /** Where tasks live (default: a {@link MemoryTaskStore} of `maxTasks` tasks). */
  store?: TaskStore;
  /** The most tasks the default store keeps (default 10,000). */
  maxTasks?: number;
  /** How long a task is kept after its creation, in ms; `null` for as long as the store can (default 1 hour). */
  ttlMs?: number | null;
  /** The polling interval suggested to clients, in ms (default 500). */
  pollIntervalMs?: number;
}

/** What a task run running in this process listens for. */
export interface LocalTaskRun {
  /** A client cancelled the task. */
  cancelled(): void;
  /** The task changed (answers arrived, say). */
  changed(task: TaskRecord): void;
}

/**
 * A server's tasks: the store, the defaults of new tasks, and the runs in this process, which hear
 * about cancellations and answers through the store's events (so a `tasks/cancel` that another
 * replica received still reaches the handler here). Lookups are bound to the principal: another
 * principal's task reads as unknown.
 */
export class TaskRegistry {
  readonly store: TaskStore;
  readonly ttlMs: number | null;
  readonly pollIntervalMs: number;
  private readonly runs = new Map<string, LocalTaskRun>();
  private stopWatching: (() => void) | undefined;

  constructor(options: TaskOptions = {}) {
    this.store =
      options.store ??
      new MemoryTaskStore({
        maxTasks: options.maxTasks,
        maxTasksPerOwner: options.maxTasksPerOwner,
        maxTaskResultBytes: options.maxTaskResultBytes,
        maxTaskBytesPerOwner: options.maxTaskBytesPerOwner,
        maxTaskBytes: options.maxTaskBytes,
      });
    this.ttlMs = options.ttlMs === undefined ? 3_600_000 : options.ttlMs;
    this.pollIntervalMs = options.pollIntervalMs ?? 500;
  }

  /** Tasks running in this process now. */
  get running(): number {
    return this.runs.size;
  }

  /** The task if it exists, is within its TTL and belongs to `principal`; otherwise `undefined`. */
  async find(taskId: string, principal: Principal | undefined): Promise<TaskRecord | undefined> {
    const task = await this.store.get(taskId);
    return task !== undefined && ownedBy(task, principal) ? task : undefined;
  }

  /** Registers a run of this process; returns the function that forgets it. */
  track(taskId: string, run: LocalTaskRun): () => void {
    this.stopWatching ??= this.store.watch(this.dispatch);
    this.runs.set(taskId, run);
    return () => {
      if (this.runs.get(taskId) === run) this.runs.delete(taskId);
    };
  }

  /** Cancels every run of this process and releases the store. */
  async close(): Promise<void> {
    for (const run of [...this.runs.values()]) run.cancelled();
    this.runs.clear();
    this.stopWatching?.();
    this.stopWatching = undefined;
    await this.store.close?.();
  }

  private readonly dispatch = (event: TaskEvent): void => {
    const run = this.runs.get(event.task.taskId);
    if (run === undefined) return;
    if (event.kind === 'cancelled') run.cancelled();
    else run.changed(event.task);
  };
}

/** True when `task` was created by `principal` (or both are anonymous). */
export function ownedBy(task: TaskRecord, principal: Principal | undefined): boolean {
  return task.owner === principal?.id;
}
