// The Node entry: everything the web-standard entry has, plus the node handler, express and serveHttp.
export * from './fetch.js';
export { createHttpHandler, type HttpHandler } from './handler.js';
export { mcpRouter, type McpRouter } from './express.js';
export { serveHttp, type ServeHttpOptions, type HttpServerHandle } from './serve.js';
