import { ConfigurationError } from '../errors.js';
import type { TaskDeclaration, TaskSupport } from './taskStore.js';

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
