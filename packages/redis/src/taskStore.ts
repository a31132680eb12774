import { SharedStateError } from '@rondo/core';
import {
  TaskLimitError,
  type NewTask,
  type TaskChange,
  type TaskEvent,
  type TaskRecord,
  type TaskStore,
} from '@rondo/tasks';
import { changeBytes, newTaskId } from '@rondo/tasks/internal';
import {
  isPlainObject,
  type InputRequestBody,
  type JsonObject,
  type TaskStatus,
} from '@rondo/protocol';
import { parseJson } from './channels.js';
import type { RedisConnection } from './connection.js';
import type { Keys } from './keys.js';
import { ttl } from './sessionStore.js';
import { CANCEL, CREATE, GET, RESPOND, TAKE_ANSWERS, UPDATE } from './taskScripts.js';

/** How tasks in Redis are bounded. */
export interface TaskLimits {
  /**
   * The longest a task is kept, whatever its own TTL: a task created with `ttlMs: null` ("as long
   * as the store can") expires after this too, so no task stays in Redis for ever.
   */
  readonly maxTaskTtlMs: number;
  /** Tasks of one owner that are neither finished nor expired (0 for no cap). */
  readonly maxTasksPerOwner: number;
  /** The largest result, error or set of input requests one change stores, in bytes of JSON. */
  readonly maxTaskResultBytes: number;
}

const STATUSES: ReadonlySet<string> = new Set<TaskStatus>([
  'working',
  'input_required',
  'completed',
  'failed',
  'cancelled',
]);

/**
 * Tasks in Redis, so any process answers `tasks/get`, `tasks/update` and `tasks/cancel` for a task
 * another one runs. Every rule is applied by one Lua script, atomically: a terminal task never
 * changes, the last outstanding answer moves `input_required` back to `working`, a cancel ends a
 * task at once. Each change is published on `<prefix>tasks` by the same script, so a cancel made on
 * one process reaches the run on another. A task expires with its TTL (PX on its keys); the number
 * of tasks is bounded by their TTLs, each owner's share of running tasks (`maxTasksPerOwner`) and
 * the size of each value (`maxTaskResultBytes`); what they hold in total is Redis's memory to bound.
 */
export class RedisTaskStore implements TaskStore {
  constructor(
    private readonly connection: RedisConnection,
    private readonly keys: Keys,
    private readonly limits: TaskLimits,
  ) {}

  async create(task: NewTask): Promise<TaskRecord> {
    const now = Date.now();
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
    const meta = {
      taskId: record.taskId,
      owner: record.owner ?? null,
      createdAt: now,
      ttlMs: record.ttlMs,
      pollIntervalMs: record.pollIntervalMs,
    };
    const keptMs = Math.min(task.ttlMs ?? Number.POSITIVE_INFINITY, this.limits.maxTaskTtlMs);
    const created = await this.connection.script(
      CREATE,
      [this.keys.task(record.taskId), this.keys.ownerTasks(task)],
      [
        JSON.stringify(meta),
        now,
        ttl(keptMs),
        task.statusMessage === undefined ? '0' : '1',
        task.statusMessage ?? '',
        this.limits.maxTasksPerOwner,
        this.keys.taskPrefix,
        record.taskId,
        now + keptMs,
      ],
    );
    if (created === 0) throw TaskLimitError.ownerShareFull(this.limits.maxTasksPerOwner);
    return record;
  }

  async get(taskId: string): Promise<TaskRecord | undefined> {
    return this.decode(
      await this.connection.script(
        GET,
        [this.keys.task(taskId), this.keys.taskRequests(taskId)],
        [],
      ),
    );
  }

  async update(taskId: string, change: TaskChange): Promise<TaskRecord | undefined> {
    const bytes = changeBytes(change);
    if (bytes > this.limits.maxTaskResultBytes) {
      throw TaskLimitError.valueTooLarge(bytes, this.limits.maxTaskResultBytes);
    }
    const requests = Object.entries(change.inputRequests ?? {}).flatMap(([key, body]) => [
      key,
      JSON.stringify(body),
    ]);
    const reply = await this.connection.script(
      UPDATE,
      [this.keys.task(taskId), this.keys.taskRequests(taskId)],
      [
        this.keys.tasksChannel,
        Date.now(),
        change.status ?? '',
        change.statusMessage === undefined ? '0' : '1',
        change.statusMessage ?? '',
        change.result === undefined ? '' : JSON.stringify(change.result),
        change.error === undefined ? '' : JSON.stringify(change.error),
        ...requests,
      ],
    );
    return this.decode(reply);
  }

  async respond(
    taskId: string,
    answers: Readonly<Record<string, JsonObject>>,
  ): Promise<TaskRecord | undefined> {
    const pairs = Object.entries(answers).flatMap(([key, answer]) => [key, JSON.stringify(answer)]);
    const reply = await this.connection.script(
      RESPOND,
      [this.keys.task(taskId), this.keys.taskRequests(taskId), this.keys.taskAnswers(taskId)],
      [this.keys.tasksChannel, Date.now(), ...pairs],
    );
    return this.decode(reply);
  }

  async takeAnswers(taskId: string): Promise<Record<string, JsonObject>> {
    const pairs = await this.connection.script<unknown>(
      TAKE_ANSWERS,
      [this.keys.taskAnswers(taskId)],
      [],
    );
    const answers: Record<string, JsonObject> = {};
    if (!Array.isArray(pairs)) return answers;
    for (let index = 0; index + 1 < pairs.length; index += 2) {
      const [key, text] = [pairs[index] as unknown, pairs[index + 1] as unknown];
      const answer = typeof text === 'string' ? parseJson(text) : undefined;
      if (typeof key === 'string' && isPlainObject(answer)) answers[key] = answer as JsonObject;
    }
    return answers;
  }

  async requestCancel(taskId: string): Promise<TaskRecord | undefined> {
    const reply = await this.connection.script(
      CANCEL,
      [this.keys.task(taskId), this.keys.taskRequests(taskId), this.keys.taskAnswers(taskId)],
      [this.keys.tasksChannel, Date.now()],
    );
    return this.decode(reply);
  }

  watch(listener: (event: TaskEvent) => void): () => void {
    return this.connection.listen(this.keys.tasksChannel, (payload) => {
      const value = parseJson(payload);
      const kind = isPlainObject(value) ? value.kind : undefined;
      const task = isPlainObject(value) ? taskOf(value.task) : undefined;
      if ((kind !== 'changed' && kind !== 'cancelled') || task === undefined) {
        this.connection.report('skipped a malformed task event');
        return;
      }
      listener({ kind, task });
    });
  }

  /** The task a script answered with; `undefined` for none (unknown or expired). */
  private decode(reply: unknown): TaskRecord | undefined {
    if (reply === null || reply === undefined) return undefined;
    const task = typeof reply === 'string' ? taskOf(parseJson(reply)) : undefined;
    if (task === undefined) {
      throw new SharedStateError(`Redis at ${this.connection.where} holds a malformed task`);
    }
    return task;
  }
}

/** A task as the scripts write it (`{ meta, status, … }`), checked; `undefined` when malformed. */
function taskOf(value: unknown): TaskRecord | undefined {
  if (!isPlainObject(value) || !isPlainObject(value.meta)) return undefined;
  const { meta, status, statusMessage, lastUpdatedAt, result, error, inputRequests } = value;
  if (
    typeof meta.taskId !== 'string' ||
    (meta.owner !== null && typeof meta.owner !== 'string') ||
    typeof meta.createdAt !== 'number' ||
    (meta.ttlMs !== null && typeof meta.ttlMs !== 'number') ||
    typeof meta.pollIntervalMs !== 'number' ||
    typeof status !== 'string' ||
    !STATUSES.has(status) ||
    typeof lastUpdatedAt !== 'number' ||
    !isPlainObject(inputRequests)
  ) {
    return undefined;
  }
  return {
    taskId: meta.taskId,
    owner: meta.owner ?? undefined,
    status: status as TaskStatus,
    createdAt: meta.createdAt,
    lastUpdatedAt,
    ttlMs: meta.ttlMs,
    pollIntervalMs: meta.pollIntervalMs,
    inputRequests: inputRequests as Record<string, InputRequestBody>,
    ...(typeof statusMessage === 'string' ? { statusMessage } : {}),
    ...(isPlainObject(result) ? { result: result as JsonObject } : {}),
    ...(isPlainObject(error) ? { error: error as JsonObject } : {}),
  };
}
