import { TASKS_EXTENSION, type JsonObject } from '@rondo/protocol';
import type {
  Extension,
  ExtensionHost,
  ListenPart,
  RoundTakeover,
} from '../contracts/extension.js';
import type { NamedCall } from '../pipeline/operations.js';
import { takenRoundOf } from '../pipeline/takeover.js';
import { declaresTasks, taskMethods, tasksExtensionRequired } from './taskMethods.js';
import type { TaskRegistry } from './taskRegistry.js';
import { startTask } from './taskRun.js';
import { detailedTask, taskHandle } from './taskWire.js';

/** The most tasks one `subscriptions/listen` stream may follow. */
const MAX_TASK_IDS = 256;

/**
 * The Tasks extension (`io.modelcontextprotocol/tasks`) on the extension seam, modern wire only:
 * announced in `server/discover` when some tool has task support; `tasks/get`, `tasks/update`
 * and `tasks/cancel`; a `tools/call` of a tool with task support becomes a task when the request
 * declares the extension; `notifications/tasks` on a `subscriptions/listen` stream for the
 * caller's own `taskIds`. A server uses it from the start, over its {@link TaskRegistry}.
 */
export function tasksExtension(registry: TaskRegistry): Extension {
  return {
    id: TASKS_EXTENSION,
    settings: (era, host) => (era === 'modern' && offersTasks(host) ? {} : undefined),
    methods: taskMethods(registry),
    takeRound: (round) => takeToolCall(round),
    listen: async (filter, call) => {
      const taskIds = filter.taskIds;
      if (!Array.isArray(taskIds)) return undefined;
      if (!declaresTasks(call)) throw tasksExtensionRequired('notifications/tasks');
      const unique = [...new Set(taskIds.filter((id) => typeof id === 'string'))].slice(
        0,
        MAX_TASK_IDS,
      );
      const found = await Promise.all(unique.map((id) => registry.find(id, call.principal)));
      const own = unique.filter((_id, index) => found[index] !== undefined);
      return followTasks(registry, own);
    },
  };
}

/**
 * True when some tool may run as a task, or some provider keeps tasks of its own (a proxy passing
 * its upstream's through), so the extension is worth announcing.
 */
function offersTasks(host: ExtensionHost): boolean {
  if (host.capabilities().tasks === true) return true;
  return host.callableTools().some((entry) => entry.task.support !== 'forbidden');
}

/**
 * A `tools/call` of a tool with task support becomes a task when the request declares the
 * extension (from its first call, or from the retry that brings the answers when it starts after
 * input); without the extension a task-optional tool runs as an ordinary call and a task-required
 * one is -32021. A tool the caller may not see runs its ordinary (unknown tool) path.
 */
async function takeToolCall(round: RoundTakeover): Promise<JsonObject | undefined> {
  const { call, host, method, identity } = round;
  if (method !== 'tools/call') return undefined;
  const { name } = identity as NamedCall;
  const tool = host.tool(name, call.principal);
  if (tool === undefined || tool.task.support === 'forbidden') return undefined;
  if (!declaresTasks(call)) {
    if (tool.task.support === 'required') throw tasksExtensionRequired(`the tool "${name}"`);
    return undefined;
  }
  if (tool.task.startsAfterInput === true && !round.retry) return undefined;
  // A task runs the request's own call and round operation later, which the public round leaves out.
  const taken = takenRoundOf(round);
  return taskHandle(await startTask(taken.call, taken.runtime, taken));
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
