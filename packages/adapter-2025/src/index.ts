export { legacyEra } from './legacyEra.js';
export {
  SERVED_LEGACY_REVISIONS,
  type LegacyEraOptions,
  type ServedLegacyRevision,
} from './options.js';
