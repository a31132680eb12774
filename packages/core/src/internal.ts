/**
 * What Rondo's own packages share and users do not need: the request pipeline the era adapters
 * plug into, and the plumbing of transports. Not for applications: these may change in any
 * release.
 */
export * from './pipeline/index.js';
export { toMcpError } from './wireError.js';
export { MessageChannel, type MessageChannelOptions } from './messageChannel.js';
export { listenOn, type Listening } from './nodeListener.js';
