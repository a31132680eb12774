// The Node HTTP edges: `serveHttp` (a listening server), `createHttpHandler` (a
// `node:http` request listener) and the express router `mcpRouter`, with the HTTP options.
export * from '@rondo/transport-http';
