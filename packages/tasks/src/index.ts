export { tasks, type TasksExtension } from './tasksExtension.js';
export type { TaskOptions } from './taskRegistry.js';
export type { SharedTaskState } from './servedTasks.js';
export {
  isTerminal,
  type NewTask,
  type TaskChange,
  type TaskEvent,
  type TaskRecord,
  type TaskStore,
} from './taskStore.js';
export {
  MemoryTaskStore,
  TaskCapacityError,
  type MemoryTaskStoreOptions,
} from './memoryTaskStore.js';
export {
  TASK_LIMIT_DEFAULTS,
  TaskLimitError,
  type TaskLimitName,
  type TaskShareLimits,
} from './taskLimits.js';
export type { TaskDeclaration, TaskSupport } from '@rondo/core';
