export { legacyEra } from './legacyEra.js';
export {
  SERVED_LEGACY_REVISIONS,
  type LegacyEraOptions,
  type ServedLegacyRevision,
} from './options.js';
export { MissingClientCapabilityError, RoundLimitError } from '@rondo/core';
export { chooseRevision, serverCapabilities } from './negotiation.js';
export { LEGACY_METHODS } from './methods.js';
