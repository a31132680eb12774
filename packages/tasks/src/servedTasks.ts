import { ConfigurationError, type SharedState } from '@rondo/core';
import { TaskRegistry, type TaskOptions } from './taskRegistry.js';
import type { TaskStore } from './taskStore.js';

/** A shared state that holds tasks too, as `@rondo/redis`'s does (`createServer({ shared })`). */
export interface SharedTaskState extends SharedState {
  readonly tasks: TaskStore;
}

/**
 * The tasks of the one server a `tasks()` extension serves: its registry is made when the server
 * takes the extension, since only then is its shared state known, whose task store is the default
 * one when `options.store` names none.
 */
export class ServedTasks {
  #registry: TaskRegistry | undefined;

  constructor(private readonly options: TaskOptions) {}

  /** The server's registry; the extension's members run only once it is attached. */
  get registry(): TaskRegistry {
    if (this.#registry === undefined)
      throw new ConfigurationError('tasks() serves no server yet: server.use(tasks()) first');
    return this.#registry;
  }

  /** Tasks whose run is in this process now. */
  get running(): number {
    return this.#registry?.running ?? 0;
  }

  /** Makes the registry over `options.store`, else the shared state's tasks, else memory. */
  attach(shared: SharedState | undefined): void {
    if (this.#registry !== undefined)
      throw new ConfigurationError(
        'one tasks() extension serves one server: call tasks() per server',
      );
    const store = this.options.store ?? sharedTaskStore(shared);
    this.#registry = new TaskRegistry({ ...this.options, ...(store ? { store } : {}) });
  }

  /** Cancels the tasks running here and releases the store. */
  async close(): Promise<void> {
    await this.#registry?.close();
  }
}

/** The task store of a shared state that has one (see {@link SharedTaskState}). */
function sharedTaskStore(shared: SharedState | undefined): TaskStore | undefined {
  return shared !== undefined && 'tasks' in shared ? (shared as SharedTaskState).tasks : undefined;
}
