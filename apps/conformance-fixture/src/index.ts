export { createEverythingServer, type EverythingServerOptions } from './server.js';
export { createFixtureEndpoint } from './endpoint.js';
export {
  parseFixtureArgs,
  USAGE,
  UsageError,
  type FixtureArgs,
  type FixtureTransport,
} from './cliArgs.js';
export { WATCHED_RESOURCE } from './resources/index.js';
