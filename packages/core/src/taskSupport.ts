import { ConfigurationError } from './errors.js';

/**
 * A tool's task support is part of its declaration (`server.tool(name, { task })`, a Prolog
 * provider's `task_support/2`), which the catalog keeps beside the descriptor; what a call of such
 * a tool becomes is the business of the extension that runs tasks (`@rondo/tasks`), which reads it
 * from the catalog entry.
 */

/** Whether a tool runs as a task: never (the default), when the client can, or only as one. */
export type TaskSupport = 'forbidden' | 'optional' | 'required';

/** A tool's task support, with when its task starts. */
export interface TaskDeclaration {
  readonly support: TaskSupport;
  /**
   * The first call runs inside its request, so a round asking for input is an ordinary
   * multi round-trip (`input_required`) answer; the task starts with the retry that brings the
   * answers. Without it the task starts with the first call.
   */
  readonly startsAfterInput?: boolean;
}

const TASK_SUPPORTS: ReadonlySet<string> = new Set(['forbidden', 'optional', 'required']);

/** A tool spec's `task` member as a declaration; an unknown support is a configuration error. */
export function taskDeclaration(
  name: string,
  task: TaskSupport | TaskDeclaration | undefined,
): TaskDeclaration | undefined {
  if (task === undefined) return undefined;
  const declaration = typeof task === 'string' ? { support: task } : task;
  if (!TASK_SUPPORTS.has(declaration.support)) {
    throw new ConfigurationError(
      `tool "${name}": task must be 'forbidden', 'optional' or 'required', not ${JSON.stringify(declaration.support)}`,
    );
  }
  return declaration;
}
