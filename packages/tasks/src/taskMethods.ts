import {
  ErrorCode,
  McpError,
  TASKS_EXTENSION,
  isPlainObject,
  type JsonObject,
} from '@rondo/protocol';
import { TaskRequestParamsSchema, UpdateTaskRequestParamsSchema } from '@rondo/protocol/internal';
import {
  extensionMethod,
  type ExtensionCall,
  type ExtensionMethod,
  type HandlerContext,
} from '@rondo/core';
import { readInputResponse } from '@rondo/core/internal';
import type { TaskRegistry } from './taskRegistry.js';
import type { TaskRecord } from './taskStore.js';
import { detailedTask } from './taskWire.js';

/**
 * `tasks/get`, `tasks/update` and `tasks/cancel`, on the modern wire only. Each needs the client to
 * declare the Tasks extension on the request (-32021 otherwise), and each finds its task only when
 * it belongs to the request's principal: an unknown, expired or someone else's task is the same
 * -32602. Each routes on `Mcp-Name: <taskId>` over HTTP.
 */

/** True when the request's client capabilities declare the Tasks extension. */
export function declaresTasks(call: HandlerContext): boolean {
  const extensions = call.clientCapabilities.extensions;
  return isPlainObject(extensions) && isPlainObject(extensions[TASKS_EXTENSION]);
}

/** -32021 naming the Tasks extension as the capability the client lacks. */
export function tasksExtensionRequired(what: string): McpError {
  return new McpError(
    ErrorCode.MissingClientCapability,
    `Missing required client capability: ${what} needs the ${TASKS_EXTENSION} extension, which the request does not declare`,
    { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
  );
}

/** The three methods, over the registry of the server they serve. */
export function taskMethods(registryOf: () => TaskRegistry): Record<string, ExtensionMethod> {
  const find = async (call: ExtensionCall, taskId: string): Promise<TaskRecord> => {
    if (!declaresTasks(call)) throw tasksExtensionRequired(call.method);
    const task = await registryOf().find(taskId, call.principal);
    if (task === undefined) {
      throw new McpError(ErrorCode.InvalidParams, 'Failed to retrieve task: Task not found', {
        taskId,
      });
    }
    return task;
  };
  return {
    // The detailed task.
    'tasks/get': extensionMethod({
      params: TaskRequestParamsSchema,
      eras: ['modern'],
      nameParam: 'taskId',
      handle: async (params, call) => detailedTask(await find(call, params.taskId)),
    }),
    // Answers to outstanding input requests. An answer to a key that is not outstanding is
    // ignored; one that is outstanding is checked against its request (-32602 when malformed)
    // before it is recorded. The acknowledgement is empty.
    'tasks/update': extensionMethod({
      params: UpdateTaskRequestParamsSchema,
      eras: ['modern'],
      nameParam: 'taskId',
      handle: async (params, call) => {
        const task = await find(call, params.taskId);
        const accepted: Record<string, JsonObject> = {};
        for (const [key, answer] of Object.entries(params.inputResponses)) {
          const request = task.inputRequests[key];
          if (request === undefined || !Object.hasOwn(task.inputRequests, key)) continue;
          readInputResponse(key, request, answer);
          accepted[key] = answer as JsonObject;
        }
        if (Object.keys(accepted).length > 0)
          await registryOf().store.respond(task.taskId, accepted);
        return {};
      },
    }),
    // Cooperative and idempotent; a terminal task is acknowledged as it is.
    'tasks/cancel': extensionMethod({
      params: TaskRequestParamsSchema,
      eras: ['modern'],
      nameParam: 'taskId',
      handle: async (params, call) => {
        const task = await find(call, params.taskId);
        await registryOf().store.requestCancel(task.taskId);
        return {};
      },
    }),
  };
}
