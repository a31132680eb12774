import type { InputRequestBody, JsonObject, TaskStatus } from '@rondo/protocol';

/**
 * Where tasks live: the seam a shared store (Redis, say) implements so that any replica can answer
 * `tasks/get`, `tasks/update` and `tasks/cancel` for a task another replica runs. Every member is
 * asynchronous and every value is plain JSON-able data, so a store may keep it anywhere; the
 * state-machine rules that must be atomic (a terminal task never changes, the last answer moves a
 * task back to `working`, a cancel request ends a task at once) are the store's, so a shared store
 * can apply them in one transaction.
 */
export interface TaskStore {
  /** Stores a new task (status `working`) and resolves once a `get` for its id would find it. */
  create(task: NewTask): Promise<TaskRecord>;
  /** The task, or `undefined` when it is unknown or past its TTL. */
  get(taskId: string): Promise<TaskRecord | undefined>;
  /**
   * Applies a change (status, message, result or error, new input requests) to a task that is not
   * terminal; a terminal task is returned unchanged, an unknown or expired one is `undefined`.
   */
  update(taskId: string, change: TaskChange): Promise<TaskRecord | undefined>;
  /**
   * Records answers to outstanding input requests. Keys that are not outstanding (never issued,
   * already answered) are ignored; once none is outstanding the task is `working` again. Resolves
   * the task after the change, `undefined` when it is unknown or expired.
   */
  respond(
    taskId: string,
    answers: Readonly<Record<string, JsonObject>>,
  ): Promise<TaskRecord | undefined>;
  /** Removes and returns the recorded answers, for the run that waits for them. */
  takeAnswers(taskId: string): Promise<Record<string, JsonObject>>;
  /**
   * Asks for a task's cancellation: a task that is not terminal becomes `cancelled` at once (its
   * run is told through {@link watch}); a terminal one is left as it is.
   */
  requestCancel(taskId: string): Promise<TaskRecord | undefined>;
  /** Listens to every task's changes, whichever replica made them; returns the function that stops. */
  watch(listener: (event: TaskEvent) => void): () => void;
  /** Releases the store's resources (timers, connections). */
  close?(): Promise<void>;
}

/** A task as a store keeps it. Times are epoch milliseconds. */
export interface TaskRecord {
  readonly taskId: string;
  /** The id of the principal that created the task; `undefined` when nobody was authenticated. */
  readonly owner: string | undefined;
  readonly status: TaskStatus;
  readonly statusMessage?: string;
  readonly createdAt: number;
  readonly lastUpdatedAt: number;
  /** How long the task is kept after its creation; `null` for as long as the store can. */
  readonly ttlMs: number | null;
  readonly pollIntervalMs: number;
  /** Outstanding input requests, by key (unique over the task's life). */
  readonly inputRequests: Readonly<Record<string, InputRequestBody>>;
  /** The final result of the underlying request, as its wire carries it (when `completed`). */
  readonly result?: JsonObject;
  /** The JSON-RPC error the underlying request failed with (when `failed`). */
  readonly error?: JsonObject;
}

/** What a new task starts with. */
export interface NewTask {
  readonly owner: string | undefined;
  /**
   * Whose share of the per-owner caps the task counts against, when not its owner's: the server
   * sets it for an anonymous client the transport can tell apart (by its address), so anonymous
   * clients do not all draw on one share. Lookups stay bound to `owner`.
   */
  readonly share?: string;
  readonly ttlMs: number | null;
  readonly pollIntervalMs: number;
  readonly statusMessage?: string;
}

/**
 * The key of the share `task` counts against: its `share` if set, otherwise its owner, each in a
 * namespace of its own, so that no principal's id can name an anonymous client's share.
 */
export function shareOf(task: NewTask): string | undefined {
  if (task.share !== undefined) return `share:${task.share}`;
  return task.owner === undefined ? undefined : `owner:${task.owner}`;
}

/** A change to a task that is not terminal. */
export interface TaskChange {
  readonly status?: TaskStatus;
  readonly statusMessage?: string;
  readonly result?: JsonObject;
  readonly error?: JsonObject;
  /** New outstanding input requests, added to those still outstanding. */
  readonly inputRequests?: Readonly<Record<string, InputRequestBody>>;
}

/** What {@link TaskStore.watch} listeners hear. */
export type TaskEvent =
  /** The task changed (status, message, requests, answers recorded); `task` is its new state. */
  | { readonly kind: 'changed'; readonly task: TaskRecord }
  /** The task was cancelled by a client: its run must stop. */
  | { readonly kind: 'cancelled'; readonly task: TaskRecord };

/** True for the statuses a task never leaves. */
export function isTerminal(status: TaskStatus): boolean {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}
