import { ErrorCode, McpError, isMcpError, isPlainObject } from '@rondo/protocol';
import type { PassedTask, PassedTasks } from './passedTasks.js';

/** What becomes of a passed-through request's answer before its caller sees it. */
export interface Shaping {
  /** The params sent upstream, made when they need waiting for (an opened requestState). */
  prepare?(sent: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** The result as the caller sees it (a task's gateway id instead of the upstream's). */
  result(
    result: Record<string, unknown>,
  ): Record<string, unknown> | Promise<Record<string, unknown>>;
  /** The error as the caller sees it. */
  error?(error: unknown): unknown;
}

/** The answer as the upstream gave it. */
export const AS_IT_IS: Shaping = { result: (result) => result };

/**
 * The answers of a passed-through task request as its caller sees them: the gateway's id instead
 * of the upstream's, and an upstream that no longer knows the task (expired, or the upstream
 * restarted) answered as the server answers any unknown task, the task forgotten; a task seen
 * finished no longer counts in its caller's running share.
 */
export function taskShaping(tasks: PassedTasks, task: PassedTask, method: string): Shaping {
  return {
    result: (result) => {
      // A cancel the upstream accepted ends the task at once (its answer carries no status).
      tasks.observe(task.id, method === 'tasks/cancel' ? 'cancelled' : result.status);
      return typeof result.taskId === 'string' ? { ...result, taskId: task.id } : result;
    },
    error: (error) => {
      const data = isMcpError(error) ? error.data : undefined;
      if (
        !isMcpError(error) ||
        error.code !== ErrorCode.InvalidParams ||
        !isPlainObject(data) ||
        data.taskId !== task.upstreamId
      ) {
        return error;
      }
      tasks.forget(task.id);
      return new McpError(ErrorCode.InvalidParams, 'Failed to retrieve task: Task not found', {
        taskId: task.id,
      });
    },
  };
}
