// The Hono edge, `mcpHono(endpoint)` as Hono middleware. Its own subpath: only an app serving
// with Hono loads it.
export * from '@rondo/transport-http/hono';
