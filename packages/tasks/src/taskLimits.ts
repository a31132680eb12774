import { StoreLimitError } from '@rondo/core';
import type { TaskChange } from './taskStore.js';

/**
 * The shares every {@link TaskStore} keeps, whatever holds the tasks: how many tasks one owner may
 * have running at once, and how large one stored value may be.
 */
export interface TaskShareLimits {
  /**
   * Tasks one owner (a principal; an anonymous client as its transport tells it apart, by its
   * address over HTTP, see `Exchange.client`) may have that are neither finished nor expired;
   * past it a new task of that owner is refused with a {@link TaskLimitError}, while other owners
   * go on creating theirs. 0 for no cap, where the store has no total (Redis); the in-memory
   * store defaults to a quarter of its `maxTasks` and refuses a share that could fill it.
   */
  maxTasksPerOwner?: number;
  /**
   * The largest value one change may store on a task, in bytes of JSON: a result, an error, or the
   * input requests of one round. A larger one is refused with a {@link TaskLimitError} (the run
   * then stores the task as `failed` with that error).
   */
  maxTaskResultBytes?: number;
}

/** The defaults of {@link TaskShareLimits}, and of the in-memory store's byte budgets. */
export const TASK_LIMIT_DEFAULTS = {
  maxTasksPerOwner: 1_000,
  maxTaskResultBytes: 4 * 1024 * 1024,
  maxTaskBytesPerOwner: 64 * 1024 * 1024,
  maxTaskBytes: 256 * 1024 * 1024,
} as const;

/** The name of a task limit a {@link TaskLimitError} reports. */
export type TaskLimitName =
  'maxTasksPerOwner' | 'maxTaskResultBytes' | 'maxTaskBytesPerOwner' | 'maxTaskBytes';

/**
 * A task store refused a task or a change because of one of its limits; the message names the
 * limit, and the wire error (-32603) carries `data: { limit, [limit]: value }`.
 */
export class TaskLimitError extends StoreLimitError {
  override readonly code: string = 'core.task-limit';
  override readonly name = 'TaskLimitError';
  constructor(
    override readonly limit: TaskLimitName,
    value: number,
    message: string,
  ) {
    super(limit, value, message);
  }

  /** The refusal of a new task past its owner's share (`maxTasksPerOwner`). */
  static ownerShareFull(max: number): TaskLimitError {
    return new TaskLimitError(
      'maxTasksPerOwner',
      max,
      'The task store is full for this client: it already has as many tasks running as it ' +
        'may; try again when one of them has finished',
    );
  }

  /** The refusal of one value of `bytes` bytes, larger than `maxTaskResultBytes`. */
  static valueTooLarge(bytes: number, max: number): TaskLimitError {
    return new TaskLimitError(
      'maxTaskResultBytes',
      max,
      `The task's result is too large to keep: ${bytes} bytes of JSON`,
    );
  }
}

/**
 * The bytes a change stores on a task: its result, error and new input requests as JSON (UTF-16
 * code units, which is what a string of that JSON holds in memory).
 */
export function changeBytes(
  change: Pick<TaskChange, 'result' | 'error' | 'inputRequests'>,
): number {
  let bytes = 0;
  if (change.result !== undefined) bytes += JSON.stringify(change.result).length;
  if (change.error !== undefined) bytes += JSON.stringify(change.error).length;
  if (change.inputRequests !== undefined) bytes += JSON.stringify(change.inputRequests).length;
  return bytes;
}
