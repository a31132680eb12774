import { createRequire } from 'node:module';
import type express from 'express';
import type { Router } from 'express';
import type { Endpoint } from '@rondo/core';
import { nodeBody } from './handler.js';
import { createMcpService } from './service.js';
import type { HttpTransportOptions } from './options.js';

/** An express Router serving an MCP endpoint; `close()` ends its sessions. */
export type McpRouter = Router & { close(): Promise<void> };

// express is an optional peer: loaded on first use so the node handler works without it.
const requireExpress = (): typeof express =>
  createRequire(import.meta.url)('express') as typeof express;

/**
 * An express Router serving an MCP endpoint at `options.path` (default `/mcp`), plus the Protected
 * Resource Metadata when `options.auth` is set (mount the router at the root for those paths to
 * be the well-known ones). A JSON body parser that ran before it is honoured.
 */
export function mcpRouter(endpoint: Endpoint, options?: HttpTransportOptions): McpRouter {
  const service = createMcpService(endpoint, options);
  const router = requireExpress().Router();
  router.all(service.options.path, (req, res) => service.serveMcp(req, res, nodeBody(req)));
  router.get(/^\/\.well-known\/oauth-protected-resource(\/.*)?$/, (req, res, next) => {
    if (!service.serveWellKnown(req.path, res)) next();
  });
  return Object.assign(router, { close: () => service.close() });
}
