/**
 * The web-standard entry of the Streamable HTTP transport: what Workers, Deno, Bun and Hono apps
 * load. Nothing here imports a Node built-in.
 */
export { createFetchHandler, type FetchHandler, type FetchConnectionInfo } from './fetchHandler.js';
export { HTTP_TRANSPORT_DEFAULTS, type HttpTransportOptions } from './options.js';
export {
  MEMORY_EVENT_STORE_DEFAULTS,
  createMemoryEventStore,
  type EventStore,
  type MemoryEventStore,
  type MemoryEventStoreOptions,
  type StoredEvent,
  type ReplayedEvents,
} from '@rondo/core';
export { metadataUrlFor, type OAuthResourceOptions, type VerifiedToken } from './oauth.js';
