import { TASKS_EXTENSION, type JsonObject } from '@rondo/protocol';
import type { Extension, ListenPart, RoundTakeover, ServerRuntime } from '@rondo/core';
import { runtimeOf, seenBy, type NamedCall } from '@rondo/core/internal';
import { ServedTasks } from './servedTasks.js';
import { declaresTasks, taskMethods, tasksExtensionRequired } from './taskMethods.js';
import type { TaskOptions, TaskRegistry } from './taskRegistry.js';
import { startTask } from './taskRun.js';
import { detailedTask, taskHandle } from './taskWire.js';

/** The most tasks one `subscriptions/listen` stream may follow. */
const MAX_TASK_IDS = 256;

/** The Tasks extension as {@link tasks} makes it: an extension that counts its runs. */
export interface TasksExtension extends Extension {
  /** Tasks whose run is in this process now (0 before a server uses the extension). */
  readonly running: number;
}

/**
 * The Tasks extension (`io.modelcontextprotocol/tasks`), modern wire only:
 * `server.use(tasks())`. It is announced in `server/discover` when some tool has task support;
 * it adds `tasks/get`, `tasks/update` and `tasks/cancel`; a `tools/call` of a tool with task
 * support becomes a task when the request declares the extension (`takeRound`); a
 * `subscriptions/listen` stream follows the caller's own `taskIds` with `notifications/tasks`
 * (`listen`). Tasks live in `options.store`, else in the task store of the server's shared state
 * (`@rondo/redis`), else in memory. One extension serves one server.
 */
export function tasks(options: TaskOptions = {}): TasksExtension {
  const served = new ServedTasks(options);
  return {
    id: TASKS_EXTENSION,
    settings: (era, runtime) => (era === 'modern' && offersTasks(runtime) ? {} : undefined),
    methods: taskMethods(() => served.registry),
    takeRound: (round) => takeToolCall(round, served.registry),
    listen: async (filter, call) => {
      const taskIds = filter.taskIds;
      if (!Array.isArray(taskIds)) return undefined;
      if (!declaresTasks(call)) throw tasksExtensionRequired('notifications/tasks');
      const unique = [...new Set(taskIds.filter((id) => typeof id === 'string'))].slice(
        0,
        MAX_TASK_IDS,
      );
      const registry = served.registry;
      const found = await Promise.all(unique.map((id) => registry.find(id, call.principal)));
      const own = unique.filter((_id, index) => found[index] !== undefined);
      return followTasks(registry, own);
    },
    attach: (server) => served.attach(runtimeOf(server).shared),
    close: () => served.close(),
    get running() {
      return served.running;
    },
  };
}

/**
 * True when some tool may run as a task, or some provider keeps tasks of its own (a proxy passing
 * its upstream's through), so the extension is worth announcing.
 */
function offersTasks(runtime: ServerRuntime): boolean {
  if (runtime.capabilities().tasks === true) return true;
  return runtime.catalog.callableTools.some((entry) => entry.task.support !== 'forbidden');
}

/**
 * A `tools/call` of a tool with task support becomes a task when the request declares the
 * extension (from its first call, or from the retry that brings the answers when it starts after
 * input); without the extension a task-optional tool runs as an ordinary call and a task-required
 * one is -32021. A tool the caller may not see runs its ordinary (unknown tool) path.
 */
async function takeToolCall(
  round: RoundTakeover,
  registry: TaskRegistry,
): Promise<JsonObject | undefined> {
  const { call, runtime, operation, identity } = round;
  if (operation.method !== 'tools/call') return undefined;
  const { name } = identity as NamedCall;
  const tool = seenBy(runtime.catalog.tool(name), call.principal);
  if (tool === undefined || tool.task.support === 'forbidden') return undefined;
  if (!declaresTasks(call)) {
    if (tool.task.support === 'required') throw tasksExtensionRequired(`the tool "${name}"`);
    return undefined;
  }
  if (tool.task.startsAfterInput === true && !round.retry) return undefined;
  return taskHandle(await startTask(call, runtime, registry, { operation, identity }));
}

/** Sends `notifications/tasks` (the detailed task) each time a followed task changes. */
function followTasks(registry: TaskRegistry, taskIds: readonly string[]): ListenPart {
  return {
    honoured: { taskIds: [...taskIds] },
    start(send) {
      if (taskIds.length === 0) return () => undefined;
      const followed = new Set(taskIds);
      return registry.store.watch(({ task }) => {
        if (followed.has(task.taskId)) send('notifications/tasks', detailedTask(task));
      });
    },
  };
}
