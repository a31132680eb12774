import { type JsonObject } from '@rondo/protocol';
import { modernInputRequestToWire } from '@rondo/protocol/internal';
import type { TaskRecord } from './taskStore.js';

/** Tasks as the modern wire carries them: ISO timestamps, the payload of the status inlined. */

/** The members every task shape has (`Task` in the extension's schema). */
function taskFields(task: TaskRecord): JsonObject {
  const fields: JsonObject = {
    taskId: task.taskId,
    status: task.status,
    createdAt: new Date(task.createdAt).toISOString(),
    lastUpdatedAt: new Date(task.lastUpdatedAt).toISOString(),
    ttlMs: task.ttlMs,
    pollIntervalMs: task.pollIntervalMs,
  };
  if (task.statusMessage !== undefined) fields.statusMessage = task.statusMessage;
  return fields;
}

/** The `CreateTaskResult` a `tools/call` answers: flat, with no result, error or requests. */
export function taskHandle(task: TaskRecord): JsonObject {
  return { resultType: 'task', ...taskFields(task) };
}

/**
 * The detailed task `tasks/get` answers and `notifications/tasks` carries: the result when
 * completed, the error when failed, the outstanding requests when input is required.
 */
export function detailedTask(task: TaskRecord): JsonObject {
  const detailed = taskFields(task);
  if (task.status === 'completed' && task.result !== undefined) detailed.result = task.result;
  if (task.status === 'failed' && task.error !== undefined) detailed.error = task.error;
  if (task.status === 'input_required') {
    const requests: JsonObject = {};
    for (const [key, body] of Object.entries(task.inputRequests)) {
      requests[key] = modernInputRequestToWire(body) as unknown as JsonObject;
    }
    detailed.inputRequests = requests;
  }
  return detailed;
}
