export { tracing, INSTRUMENTATION_SCOPE, type TracingOptions } from './tracing.js';
export { ATTR } from './attributes.js';
export { PROLOG_CALL_CHANNEL } from './prologCalls.js';
