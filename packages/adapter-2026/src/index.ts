export { modernEra } from './modernEra.js';
export { DEFAULT_LISTEN_IDLE_TIMEOUT_MS, type ModernEraOptions } from './options.js';
