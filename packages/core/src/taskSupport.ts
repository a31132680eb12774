import type { TaskDeclaration, TaskSupport } from './contracts/definitions.js';
import { ConfigurationError } from './errors.js';

/**
 * A tool's task support is part of its declaration (`server.tool(name, { task })`, a Prolog
 * provider's `task_support/2`), which the catalog keeps beside the descriptor; what a call of such
 * a tool becomes is the business of the extension that runs tasks (`@rondo/tasks`), which reads it
 * from the catalog entry.
 */

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
