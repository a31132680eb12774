export { createGateway, providerFor, type Gateway, type GatewayOptions } from './gateway.js';
export { parseConfig, readConfig, ConfigError, type GatewayEntry } from './config.js';
export { checkEntries, checkEntry, type CheckLine } from './check.js';
export { parseGatewayArgs, UsageError, USAGE, HELP, type GatewayArgs } from './cliArgs.js';
export { parseGatewayCatalog, readGatewayCatalog, type GatewayCatalog } from './catalogConfig.js';
