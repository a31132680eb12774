export {
  scaffoldFiles,
  writeScaffold,
  packageNameOf,
  ScaffoldError,
  type ProviderKind,
  type ScaffoldOptions,
} from './scaffold.js';
export { desktopConfig } from './readme.js';
export { parseCreateArgs, UsageError, USAGE, type CreateArgs } from './cliArgs.js';
export { VERSIONS, rangeOf, type ScaffoldDependency } from './versions.js';
