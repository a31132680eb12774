import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { Endpoint } from '@rondo/core';
import { nodeBody } from './handler.js';
import { createMcpService } from './service.js';
import type { HttpTransportOptions } from './options.js';

/**
 * An express Router serving an MCP endpoint; mount it with `app.use(router)`, and `close()` ends its
 * sessions. Typed by the middleware shape express accepts, not by express's own types: express is
 * an optional peer, so a consumer without `@types/express` must still compile these declarations.
 */
export interface McpRouter {
  (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void): void;
  close(): Promise<void>;
}

/** The few members of an express Router used here (express's types are not a dependency). */
interface ExpressRouter {
  (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void): void;
  all(path: string, handler: (req: IncomingMessage, res: ServerResponse) => void): unknown;
  all(
    path: RegExp,
    handler: (
      req: IncomingMessage & { path: string },
      res: ServerResponse,
      next: () => void,
    ) => void,
  ): unknown;
}

// express is an optional peer: loaded on first use so the node handler works without it.
const requireExpress = (): { Router(): ExpressRouter } =>
  createRequire(import.meta.url)('express') as { Router(): ExpressRouter };

/**
 * An express Router serving an MCP endpoint at `options.path` (default `/mcp`), plus the Protected
 * Resource Metadata when `options.auth` is set (mount the router at the root for those paths to
 * be the well-known ones). A JSON body parser that ran before it is honoured.
 */
export function mcpRouter(endpoint: Endpoint, options?: HttpTransportOptions): McpRouter {
  const service = createMcpService(endpoint, options);
  const router = requireExpress().Router();
  router.all(service.options.path, (req, res) => service.serveMcp(req, res, nodeBody(req)));
  router.all(/^\/\.well-known\/oauth-protected-resource(\/.*)?$/, (req, res, next) => {
    if (!service.serveWellKnown(req.path, req.method, res)) next();
  });
  for (const path of service.routePaths) {
    router.all(path, (req, res) => service.serveRoute(path, req, res));
  }
  return Object.assign(router, { close: () => service.close() });
}
