import {
  ErrorCode,
  McpError,
  TASKS_EXTENSION,
  isPlainObject,
  type JsonObject,
  type TaskRequestParams,
  type UpdateTaskRequestParams,
} from '@rondo/protocol';
import type { TaskRecord } from '@rondo/core';
import { readInputResponse, type RequestCall, type WireResult } from '@rondo/core/internal';
import type { ModernServerView } from '../serverView.js';
import { detailedTask } from './taskWire.js';

/**
 * `tasks/get`, `tasks/update` and `tasks/cancel`. Each needs the client to declare the Tasks
 * extension on the request (-32021 otherwise), and each finds its task only when it belongs to the
 * request's principal: an unknown, expired or someone else's task is the same -32602.
 */

/** True when the request's client capabilities declare the Tasks extension. */
export function declaresTasks(call: RequestCall): boolean {
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

/** `tasks/get`: the detailed task. */
export async function getTask(
  call: RequestCall,
  params: TaskRequestParams,
  view: ModernServerView,
): Promise<WireResult> {
  return detailedTask(await findTask(call, params.taskId, view));
}

/**
 * `tasks/update`: answers to outstanding input requests. An answer to a key that is not
 * outstanding is ignored; one that is outstanding is checked against its request (-32602 when
 * malformed) before it is recorded. The acknowledgement is empty.
 */
export async function updateTask(
  call: RequestCall,
  params: UpdateTaskRequestParams,
  view: ModernServerView,
): Promise<WireResult> {
  const task = await findTask(call, params.taskId, view);
  const accepted: Record<string, JsonObject> = {};
  for (const [key, answer] of Object.entries(params.inputResponses)) {
    const request = task.inputRequests[key];
    if (request === undefined || !Object.hasOwn(task.inputRequests, key)) continue;
    readInputResponse(key, request, answer);
    accepted[key] = answer as JsonObject;
  }
  if (Object.keys(accepted).length > 0)
    await view.server.tasks.store.respond(task.taskId, accepted);
  return {};
}

/** `tasks/cancel`: cooperative and idempotent; a terminal task is acknowledged as it is. */
export async function cancelTask(
  call: RequestCall,
  params: TaskRequestParams,
  view: ModernServerView,
): Promise<WireResult> {
  const task = await findTask(call, params.taskId, view);
  await view.server.tasks.store.requestCancel(task.taskId);
  return {};
}

async function findTask(
  call: RequestCall,
  taskId: string,
  view: ModernServerView,
): Promise<TaskRecord> {
  if (!declaresTasks(call)) throw tasksExtensionRequired(call.method);
  const task = await view.server.tasks.find(taskId, call.principal);
  if (task === undefined) {
    throw new McpError(ErrorCode.InvalidParams, 'Failed to retrieve task: Task not found', {
      taskId,
    });
  }
  return task;
}
