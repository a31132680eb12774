/**
 * `@rondo/core/internal`: pieces shared by Rondo's own transport packages. Not for applications:
 * these may change in any release.
 */
export { MessageChannel, type MessageChannelOptions } from './messageChannel.js';
export { listenOn, type Listening } from './nodeListener.js';
export { normaliseOrigin } from './origins.js';
