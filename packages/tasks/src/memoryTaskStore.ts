import { ConfigurationError } from '@rondo/core';
import { RondoError, type InputRequestBody, type JsonObject } from '@rondo/protocol';
import { TaskLedger } from './taskLedger.js';
import {
  TASK_LIMIT_DEFAULTS,
  TaskLimitError,
  changeBytes,
  type TaskShareLimits,
} from './taskLimits.js';
import { newTaskId } from './taskId.js';
import {
  isTerminal,
  shareOf,
  type NewTask,
  type TaskChange,
  type TaskEvent,
  type TaskRecord,
  type TaskStore,
} from './taskStore.js';

/** How a {@link MemoryTaskStore} is bounded. */
export interface MemoryTaskStoreOptions extends TaskShareLimits {
  /** The most tasks kept at once (default 10,000); past it the oldest finished task is dropped. */
  maxTasks?: number;
  /**
   * Running tasks of one owner: by default a quarter of `maxTasks` (at most 1,000), so that no
   * one owner can fill the store. A share of `maxTasks` or more, or 0 (no cap), is refused with a
   * `ConfigurationError`: one owner could then hold every task and shut the others out.
   */
  maxTasksPerOwner?: number;
  /**
   * Bytes of stored values (results, errors, input requests) one owner's tasks may hold (default
   * 64 MiB); past it that owner's oldest finished tasks are dropped, and when only running ones
   * are left the change is refused with a `TaskLimitError`.
   */
  maxTaskBytesPerOwner?: number;
  /** The same across every owner (default 256 MiB), the oldest finished task of anyone first. */
  maxTaskBytes?: number;
  /** The clock, in epoch milliseconds (tests use their own). */
  now?: () => number;
}

/** The store refused a task: it is full of tasks that are still running. */
export class TaskCapacityError extends RondoError {
  override readonly code: string = 'core.task-capacity';
  override readonly name = 'TaskCapacityError';
  constructor(readonly maxTasks: number) {
    super(`The task store is full: ${maxTasks} tasks are still running`);
  }
}

interface Entry {
  record: TaskRecord;
  answers: Record<string, JsonObject>;
  expiresAt: number;
  /** Bytes of the record's stored values, as the ledger counts them. */
  bytes: number;
  /** The share the task counts against (see {@link NewTask.share}). */
  share: string | undefined;
}

/** Expired tasks looked at from the oldest end on each creation: a sweep that costs O(1). */
const SWEEP_PER_CREATE = 2;

/**
 * The default {@link TaskStore}: one process's memory. It holds at most `maxTasks` tasks: a task
 * past its TTL is forgotten when it is next looked at or swept, and a new task that finds the store
 * full takes the place of the oldest expired or finished one; when every task is still running the
 * new one is refused ({@link TaskCapacityError}), so a client cannot make the server hold more.
 * Each owner has a share: at most `maxTasksPerOwner` running tasks and `maxTaskBytesPerOwner` bytes
 * of values, so one client filling its share leaves room for the others.
 */
export class MemoryTaskStore implements TaskStore {
  private readonly entries = new Map<string, Entry>();
  private readonly listeners = new Set<(event: TaskEvent) => void>();
  private readonly ledger = new TaskLedger();
  private readonly maxTasks: number;
  private readonly limits: Required<TaskShareLimits> &
    Required<Pick<MemoryTaskStoreOptions, 'maxTaskBytesPerOwner' | 'maxTaskBytes'>>;
  private readonly now: () => number;

  constructor(options: MemoryTaskStoreOptions = {}) {
    this.maxTasks = options.maxTasks ?? 10_000;
    this.limits = {
      maxTasksPerOwner: ownerShare(this.maxTasks, options.maxTasksPerOwner),
      maxTaskResultBytes: options.maxTaskResultBytes ?? TASK_LIMIT_DEFAULTS.maxTaskResultBytes,
      maxTaskBytesPerOwner:
        options.maxTaskBytesPerOwner ?? TASK_LIMIT_DEFAULTS.maxTaskBytesPerOwner,
      maxTaskBytes: options.maxTaskBytes ?? TASK_LIMIT_DEFAULTS.maxTaskBytes,
    };
    this.now = options.now ?? Date.now;
  }

  /** Bytes of the values (results, errors, input requests) the store holds. */
  get bytes(): number {
    return this.ledger.totalBytes;
  }

  /** Tasks held now, expired ones not yet swept included. */
  get size(): number {
    return this.entries.size;
  }

  create(task: NewTask): Promise<TaskRecord> {
    const now = this.now();
    this.sweep(now);
    const share = shareOf(task);
    if (!this.ownerHasRoom(share, now)) {
      return Promise.reject(TaskLimitError.ownerShareFull(this.limits.maxTasksPerOwner));
    }
    if (this.entries.size >= this.maxTasks && !this.makeRoom(now)) {
      return Promise.reject(new TaskCapacityError(this.maxTasks));
    }
    const record: TaskRecord = {
      taskId: newTaskId(),
      owner: task.owner,
      status: 'working',
      createdAt: now,
      lastUpdatedAt: now,
      ttlMs: task.ttlMs,
      pollIntervalMs: task.pollIntervalMs,
      inputRequests: {},
      ...(task.statusMessage === undefined ? {} : { statusMessage: task.statusMessage }),
    };
    const expiresAt = task.ttlMs === null ? Number.POSITIVE_INFINITY : now + task.ttlMs;
    this.entries.set(record.taskId, { record, answers: {}, expiresAt, bytes: 0, share });
    this.ledger.started(share, record.taskId);
    return Promise.resolve(record);
  }

  get(taskId: string): Promise<TaskRecord | undefined> {
    return Promise.resolve(this.live(taskId)?.record);
  }

  update(taskId: string, change: TaskChange): Promise<TaskRecord | undefined> {
    const entry = this.live(taskId);
    if (entry === undefined) return Promise.resolve(undefined);
    if (isTerminal(entry.record.status)) return Promise.resolve(entry.record);
    const { inputRequests, ...rest } = change;
    const requests =
      inputRequests === undefined
        ? entry.record.inputRequests
        : { ...entry.record.inputRequests, ...inputRequests };
    const next = { ...entry.record, ...rest, inputRequests: requests };
    const refusal = this.makeRoomFor(entry, next);
    if (refusal !== undefined) return Promise.reject(refusal);
    this.replace(entry, { ...rest, inputRequests: requests });
    return Promise.resolve(entry.record);
  }

  respond(
    taskId: string,
    answers: Readonly<Record<string, JsonObject>>,
  ): Promise<TaskRecord | undefined> {
    const entry = this.live(taskId);
    if (entry === undefined) return Promise.resolve(undefined);
    const outstanding: Record<string, InputRequestBody> = { ...entry.record.inputRequests };
    let taken = false;
    for (const [key, answer] of Object.entries(answers)) {
      if (!Object.hasOwn(outstanding, key)) continue;
      delete outstanding[key];
      entry.answers[key] = answer;
      taken = true;
    }
    if (taken && !isTerminal(entry.record.status)) {
      const emptied = Object.keys(outstanding).length === 0;
      this.replace(entry, {
        inputRequests: outstanding,
        ...(emptied && entry.record.status === 'input_required' ? { status: 'working' } : {}),
      });
    }
    return Promise.resolve(entry.record);
  }

  takeAnswers(taskId: string): Promise<Record<string, JsonObject>> {
    const entry = this.entries.get(taskId);
    if (entry === undefined) return Promise.resolve({});
    const answers = entry.answers;
    entry.answers = {};
    return Promise.resolve(answers);
  }

  requestCancel(taskId: string): Promise<TaskRecord | undefined> {
    const entry = this.live(taskId);
    if (entry === undefined || isTerminal(entry.record.status)) {
      return Promise.resolve(entry?.record);
    }
    entry.record = {
      ...entry.record,
      status: 'cancelled',
      statusMessage: 'Cancelled by the client',
      inputRequests: {},
      lastUpdatedAt: this.now(),
    };
    entry.answers = {};
    this.ledger.finished(entry.share, taskId);
    this.emit({ kind: 'cancelled', task: entry.record });
    return Promise.resolve(entry.record);
  }

  watch(listener: (event: TaskEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  close(): Promise<void> {
    this.entries.clear();
    this.ledger.clear();
    this.listeners.clear();
    return Promise.resolve();
  }

  /** The entry of a task within its TTL; an expired one is forgotten here. */
  private live(taskId: string): Entry | undefined {
    const entry = this.entries.get(taskId);
    if (entry === undefined) return undefined;
    if (entry.expiresAt > this.now()) return entry;
    this.forget(taskId, entry);
    return undefined;
  }

  private replace(entry: Entry, change: Partial<TaskRecord>): void {
    entry.record = { ...entry.record, ...change, lastUpdatedAt: this.now() };
    const bytes = changeBytes(entry.record);
    this.ledger.resized(entry.share, bytes - entry.bytes);
    entry.bytes = bytes;
    if (isTerminal(entry.record.status)) this.ledger.finished(entry.share, entry.record.taskId);
    this.emit({ kind: 'changed', task: entry.record });
  }

  private forget(taskId: string, entry: Entry): void {
    this.entries.delete(taskId);
    this.ledger.forgot(entry.share, taskId, entry.bytes);
  }

  /** True when `owner` may start one more task; its expired tasks are forgotten to make room. */
  private ownerHasRoom(owner: string | undefined, now: number): boolean {
    const max = this.limits.maxTasksPerOwner;
    const running = this.ledger.running(owner);
    if (max <= 0 || running.size < max) return true;
    for (const taskId of [...running]) {
      const entry = this.entries.get(taskId);
      if (entry !== undefined && entry.expiresAt <= now) this.forget(taskId, entry);
    }
    return running.size < max;
  }

  /**
   * Makes room for `entry` to become `next`: refuses a value past `maxTaskResultBytes`, and drops
   * the oldest finished tasks (its owner's, then anyone's) until the byte budgets hold it. The
   * refusal, when only running tasks are left to drop.
   */
  private makeRoomFor(entry: Entry, next: TaskRecord): TaskLimitError | undefined {
    const bytes = changeBytes(next);
    const grown = bytes - entry.bytes;
    if (grown <= 0) return undefined;
    const { maxTaskResultBytes, maxTaskBytesPerOwner, maxTaskBytes } = this.limits;
    if (bytes > maxTaskResultBytes) return TaskLimitError.valueTooLarge(bytes, maxTaskResultBytes);
    const share = entry.share;
    while (this.ledger.bytesOf(share) + grown > maxTaskBytesPerOwner) {
      if (!this.dropFinished(entry, (other) => other.share === share)) {
        return new TaskLimitError(
          'maxTaskBytesPerOwner',
          maxTaskBytesPerOwner,
          "The task store holds as much of this client's task data as it may",
        );
      }
    }
    while (this.ledger.totalBytes + grown > maxTaskBytes) {
      if (!this.dropFinished(entry, () => true)) {
        return new TaskLimitError(
          'maxTaskBytes',
          maxTaskBytes,
          'The task store is full of task data',
        );
      }
    }
    return undefined;
  }

  /** Drops the oldest finished or expired task `which` accepts (never `keep`); false when none. */
  private dropFinished(keep: Entry, which: (entry: Entry) => boolean): boolean {
    const now = this.now();
    for (const [taskId, entry] of this.entries) {
      if (entry === keep || !which(entry) || entry.bytes === 0) continue;
      if (entry.expiresAt <= now || isTerminal(entry.record.status)) {
        this.forget(taskId, entry);
        return true;
      }
    }
    return false;
  }

  private emit(event: TaskEvent): void {
    for (const listener of this.listeners) listener(event);
  }

  /** Forgets expired tasks at the oldest end (creation order), a few per call. */
  private sweep(now: number): void {
    let looked = 0;
    for (const [taskId, entry] of this.entries) {
      if (looked++ >= SWEEP_PER_CREATE) return;
      if (entry.expiresAt <= now) this.forget(taskId, entry);
    }
  }

  /** Drops the oldest expired or finished task; false when every task still runs. */
  private makeRoom(now: number): boolean {
    for (const [taskId, entry] of this.entries) {
      if (entry.expiresAt <= now || isTerminal(entry.record.status)) {
        this.forget(taskId, entry);
        return true;
      }
    }
    return false;
  }
}

/** The share of running tasks one owner may hold in a store of `maxTasks`: less than all of it. */
function ownerShare(maxTasks: number, configured: number | undefined): number {
  if (!Number.isInteger(maxTasks) || maxTasks < 2)
    throw new ConfigurationError(
      `maxTasks must be an integer of at least 2 (one owner's share is less than the store), got ${maxTasks}`,
    );
  const share =
    configured ??
    Math.min(TASK_LIMIT_DEFAULTS.maxTasksPerOwner, Math.max(1, Math.floor(maxTasks / 4)));
  if (!Number.isInteger(share) || share < 1 || share >= maxTasks)
    throw new ConfigurationError(
      `maxTasksPerOwner must be from 1 to ${maxTasks - 1}, less than maxTasks (${maxTasks}), so ` +
        `that one owner cannot fill the task store; got ${share}`,
    );
  return share;
}
