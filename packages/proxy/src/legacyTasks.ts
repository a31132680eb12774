import type { CallOptions, Client } from '@rondo/client';
import { ErrorCode, McpError, isPlainObject } from '@rondo/protocol';

/** The task support a legacy (2025-11-25) tool declares in its `execution` member. */
export type LegacyTaskSupport = 'optional' | 'required';

/** A legacy tool's declared task support, when it declares one that lets it run as a task. */
export function legacyTaskSupport(tool: Record<string, unknown>): LegacyTaskSupport | undefined {
  const execution = tool.execution;
  if (!isPlainObject(execution)) return undefined;
  const support = execution.taskSupport;
  return support === 'optional' || support === 'required' ? support : undefined;
}

/**
 * Sends a `tools/call` to a legacy (2025-11-25) upstream as a task of the upstream's and resolves
 * with the tool's result: the call creates the task (`params.task`), `tasks/result` waits for its
 * end, and the questions the upstream asks inside the task (delivered while `tasks/result` is
 * open) reach `options.handlers`. When `options.signal` aborts, the upstream task is cancelled
 * (`tasks/cancel`) as well as the open request. The upstream's own task id stays inside the call.
 */
export async function callAsLegacyTask(
  client: Client,
  upstreamName: string,
  params: Record<string, unknown>,
  options: CallOptions,
): Promise<Record<string, unknown>> {
  const { handlers: _handlers, ...creating } = options;
  const created = await client.forward('tools/call', { ...params, task: {} }, creating);
  const task = created.task;
  if (!isPlainObject(task) || typeof task.taskId !== 'string') {
    throw new McpError(
      ErrorCode.InternalError,
      `Upstream "${upstreamName}" answered a task call without a task`,
    );
  }
  const taskId = task.taskId;
  const cancel = (): void => {
    client.forward('tasks/cancel', { taskId }).catch(() => undefined);
  };
  if (options.signal?.aborted) {
    cancel();
    throw options.signal.reason;
  }
  options.signal?.addEventListener('abort', cancel, { once: true });
  try {
    return await client.forward('tasks/result', { taskId }, { ...options, timeoutMs: 0 });
  } finally {
    options.signal?.removeEventListener('abort', cancel);
  }
}
