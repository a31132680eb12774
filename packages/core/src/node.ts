/**
 * The Node-only plumbing of Rondo's standalone servers (a `node:http` server with connection
 * limits, listening on a port), kept out of `@rondo/core/internal` so that runtimes without Node
 * built-ins (Cloudflare Workers) never load it.
 */
export { createLimitedServer, listenOn, type Listening } from './nodeListener.js';
