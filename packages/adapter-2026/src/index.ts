export { modernEra } from './modernEra.js';
export type { ModernEraOptions } from './options.js';
