export { createLogtalkHost, type LogtalkHost, type LogtalkHostOptions } from './host.js';
export {
  HELP,
  parseHostArgs,
  USAGE,
  UsageError,
  type HostArgs,
  type HostTransport,
} from './cliArgs.js';
