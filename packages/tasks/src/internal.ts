/**
 * What Rondo's own packages share about tasks and users do not need (a shared task store's
 * building blocks, the registry a server's runs are tracked in). May change in any release.
 */
export { TaskRegistry, ownedBy, type LocalTaskRun } from './taskRegistry.js';
export { newTaskId } from './taskId.js';
export { changeBytes } from './taskLimits.js';
export { shareOf } from './taskStore.js';
