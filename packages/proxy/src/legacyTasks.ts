import type { CallOptions, Client } from '@rondo/client';
import type { TaskDeclaration } from '@rondo/core';
import { ErrorCode, McpError, isPlainObject, type Era } from '@rondo/protocol';
import type { RoundServices } from './roundRunner.js';

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

/**
 * The tools of a legacy (2025-11-25) upstream that run as its tasks, learned from its
 * `tools/list`, and the services a round of each runs with: a tool that runs only as a task is
 * called as one ({@link callAsLegacyTask}).
 */
export class LegacyTaskTools {
  private readonly supports = new Map<string, LegacyTaskSupport>();
  private readonly asTask: RoundServices;

  constructor(private readonly services: RoundServices) {
    this.asTask = {
      ...services,
      send: (client, _method, params, options) =>
        callAsLegacyTask(client, services.upstreamName, params, options),
    };
  }

  /** Learns the task support of the tools an upstream of `era` listed (a modern one declares none). */
  learn(era: Era, listed: readonly Record<string, unknown>[]): void {
    this.supports.clear();
    for (const tool of era === 'legacy' ? listed : []) {
      const support = legacyTaskSupport(tool);
      if (support !== undefined && typeof tool.name === 'string') {
        this.supports.set(tool.name, support);
      }
    }
  }

  /** The declared task support of the upstream tool `name`, as a Rondo tool declares it. */
  declaration(name: string): TaskDeclaration | undefined {
    const support = this.supports.get(name);
    return support === undefined ? undefined : { support };
  }

  /** The services a round of the upstream tool `name` runs with. */
  servicesFor(name: string): RoundServices {
    return this.supports.get(name) === 'required' ? this.asTask : this.services;
  }
}
