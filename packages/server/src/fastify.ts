// The Fastify edge, `mcpFastify(app, endpoint)`. Its own subpath: only an app serving with
// Fastify loads it.
export * from '@rondo/transport-http/fastify';
