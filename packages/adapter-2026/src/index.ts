export { modernEra } from './modernEra.js';
export type { ModernEraOptions } from './options.js';
export {
  checkStandardHeaders,
  checkParamHeaders,
  decodeSentinel,
  type HeaderMap,
} from './headerRules.js';
