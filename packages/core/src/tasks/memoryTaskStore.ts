import type { InputRequestBody, JsonObject } from '@rondo/protocol';
import { newTaskId } from './taskId.js';
import {
  isTerminal,
  type NewTask,
  type TaskChange,
  type TaskEvent,
  type TaskRecord,
  type TaskStore,
} from './taskStore.js';

/** How a {@link MemoryTaskStore} is bounded. */
export interface MemoryTaskStoreOptions {
  /** The most tasks kept at once (default 10,000); past it the oldest finished task is dropped. */
  maxTasks?: number;
  /** The clock, in epoch milliseconds (tests use their own). */
  now?: () => number;
}

/** The store refused a task: it is full of tasks that are still running. */
export class TaskCapacityError extends Error {
  override readonly name = 'TaskCapacityError';
  constructor(readonly maxTasks: number) {
    super(`The task store is full: ${maxTasks} tasks are still running`);
  }
}

interface Entry {
  record: TaskRecord;
  answers: Record<string, JsonObject>;
  expiresAt: number;
}

/** Expired tasks looked at from the oldest end on each creation: a sweep that costs O(1). */
const SWEEP_PER_CREATE = 2;

/**
 * The default {@link TaskStore}: one process's memory. It holds at most `maxTasks` tasks: a task
 * past its TTL is forgotten when it is next looked at or swept, and a new task that finds the store
 * full takes the place of the oldest expired or finished one; when every task is still running the
 * new one is refused ({@link TaskCapacityError}), so a client cannot make the server hold more.
 */
export class MemoryTaskStore implements TaskStore {
  private readonly entries = new Map<string, Entry>();
  private readonly listeners = new Set<(event: TaskEvent) => void>();
  private readonly maxTasks: number;
  private readonly now: () => number;

  constructor(options: MemoryTaskStoreOptions = {}) {
    this.maxTasks = options.maxTasks ?? 10_000;
    this.now = options.now ?? Date.now;
  }

  /** Tasks held now, expired ones not yet swept included. */
  get size(): number {
    return this.entries.size;
  }

  create(task: NewTask): Promise<TaskRecord> {
    const now = this.now();
    this.sweep(now);
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
    this.entries.set(record.taskId, { record, answers: {}, expiresAt });
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
    this.emit({ kind: 'cancelled', task: entry.record });
    return Promise.resolve(entry.record);
  }

  watch(listener: (event: TaskEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  close(): Promise<void> {
    this.entries.clear();
    this.listeners.clear();
    return Promise.resolve();
  }

  /** The entry of a task within its TTL; an expired one is forgotten here. */
  private live(taskId: string): Entry | undefined {
    const entry = this.entries.get(taskId);
    if (entry === undefined) return undefined;
    if (entry.expiresAt > this.now()) return entry;
    this.entries.delete(taskId);
    return undefined;
  }

  private replace(entry: Entry, change: Partial<TaskRecord>): void {
    entry.record = { ...entry.record, ...change, lastUpdatedAt: this.now() };
    this.emit({ kind: 'changed', task: entry.record });
  }

  private emit(event: TaskEvent): void {
    for (const listener of this.listeners) listener(event);
  }

  /** Forgets expired tasks at the oldest end (creation order), a few per call. */
  private sweep(now: number): void {
    let looked = 0;
    for (const [taskId, entry] of this.entries) {
      if (looked++ >= SWEEP_PER_CREATE) return;
      if (entry.expiresAt <= now) this.entries.delete(taskId);
    }
  }

  /** Drops the oldest expired or finished task; false when every task still runs. */
  private makeRoom(now: number): boolean {
    for (const [taskId, entry] of this.entries) {
      if (entry.expiresAt <= now || isTerminal(entry.record.status)) {
        this.entries.delete(taskId);
        return true;
      }
    }
    return false;
  }
}
