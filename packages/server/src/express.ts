// The express edge: `mcpRouter(endpoint)`, an express Router (express, an optional peer, is loaded
// only when a router is made).
export { mcpRouter, type McpRouter } from '@rondo/transport-http';
