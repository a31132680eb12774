export {
  createPrologProvider,
  type PrologProvider,
  type PrologProviderOptions,
} from './provider.js';
export type { PrologLogEntry } from './workerContract.js';
export { PROLOG_CALL_CHANNEL, type PrologCallMessage } from './diagnostics.js';
export type { Flavour } from './launch.js';
export type { PrologSkill } from './skills.js';
export { prologSkills } from './prologSkills.js';
export { prologEvents, type PrologEventSource, type PrologEventType } from './prologEvents.js';
export type { EmissionListener } from './emissionRelay.js';
export type { WorkerEmission } from './workerContract.js';
export { PROLOG_DIR, WORKER_LOCALE } from './launch.js';
export { findLogtalkHome, WELL_KNOWN_LOGTALK_HOMES } from './logtalkHome.js';
export {
  PrologBusyError,
  PrologCallError,
  PrologCancelledError,
  PrologConfigurationError,
  PrologLoadError,
  PrologProviderError,
  type ProviderProblem,
  PrologProtocolError,
  PrologTimeoutError,
  PrologUnavailableError,
  PrologWorkerError,
} from './errors.js';
