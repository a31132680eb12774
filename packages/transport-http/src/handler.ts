import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Endpoint } from '@rondo/core';
import { readMessage } from './bodyReader.js';
import type { HttpTransportOptions } from './options.js';
import { reject } from './reply.js';
import { createMcpService, normalisePath } from './service.js';

/** A node `(req, res)` handler serving an MCP endpoint; `next` (connect style) gets other paths. */
export interface HttpHandler {
  (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void): void;
  /** Closes every session and open response. The endpoint itself stays open. */
  close(): Promise<void>;
  /** How many sessions are live. */
  readonly sessionCount: number;
}

/**
 * A node `(req, res)` handler for an MCP endpoint over Streamable HTTP: stateless POSTs and
 * sessions (connections the endpoint made stateful). It serves `options.path` (default `/mcp`) and, with
 * `options.auth`, the Protected Resource Metadata; other paths go to `next`, or get 404.
 */
export function createHttpHandler(endpoint: Endpoint, options?: HttpTransportOptions): HttpHandler {
  const service = createMcpService(endpoint, options);
  const handler = (
    req: IncomingMessage,
    res: ServerResponse,
    next?: (error?: unknown) => void,
  ): void => {
    const pathname = normalisePath(req.url);
    if (pathname === service.options.path) return service.serveMcp(req, res, nodeBody(req));
    if (service.serveWellKnown(pathname, req.method, res)) return;
    if (service.serveRoute(pathname, req, res)) return;
    if (next) return next();
    reject(res, 404, `Not Found: ${pathname}`);
  };
  return Object.defineProperties(handler, {
    close: { value: () => service.close() },
    sessionCount: { get: () => service.sessionCount },
  }) as HttpHandler;
}

/** The body of a node request, read from its stream (or taken from a body parser that ran). */
export function nodeBody(req: IncomingMessage): (limit: number) => ReturnType<typeof readMessage> {
  return (limit) => readMessage(req, limit);
}
