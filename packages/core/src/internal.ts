/**
 * What Rondo's own packages share and users do not need: the request pipeline the era adapters
 * plug into, and the plumbing of transports. Not covered by semver for users.
 */
export * from './pipeline/index.js';
export { toMcpError } from './wireError.js';
