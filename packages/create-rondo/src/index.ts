export {
  scaffoldFiles,
  writeScaffold,
  desktopConfig,
  packageNameOf,
  ScaffoldError,
  type ProviderKind,
  type ScaffoldOptions,
} from './scaffold.js';
export { parseCreateArgs, UsageError, USAGE, type CreateArgs } from './cliArgs.js';
export { VERSIONS, rangeOf, type ScaffoldDependency } from './versions.js';
