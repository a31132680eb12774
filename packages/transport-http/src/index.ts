export { createHttpHandler, type HttpHandler } from './handler.js';
export { createFetchHandler, type FetchHandler, type FetchConnectionInfo } from './fetchHandler.js';
export { mcpRouter, type McpRouter } from './express.js';
export { serveHttp, type ServeHttpOptions, type HttpServerHandle } from './serve.js';
export type { HttpTransportOptions } from './options.js';
export {
  createMemoryEventStore,
  type EventStore,
  type MemoryEventStoreOptions,
  type StoredEvent,
  type ReplayedEvents,
} from './eventStore.js';
export { metadataUrlFor, type OAuthResourceOptions, type VerifiedToken } from './oauth.js';
