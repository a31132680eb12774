import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Endpoint } from '@rondo/core';
import { createHttpHandler } from './handler.js';
import type { HttpTransportOptions } from './options.js';

/** What {@link mcpFastify} registers with: the endpoint and the transport's options. */
export interface McpFastifyOptions extends HttpTransportOptions {
  endpoint: Endpoint;
}

/**
 * A Fastify plugin serving an MCP endpoint at `options.path` (default `/mcp`), plus the Protected
 * Resource Metadata when `options.auth` is set, over the node handler:
 * `app.register(mcpFastify, { endpoint })`. Its routes take the body unparsed (the transport reads
 * it under its own limit), and the sessions end when the app closes.
 */
export const mcpFastify: FastifyPluginAsync<McpFastifyOptions> = async (app, options) => {
  const { endpoint, ...transport } = options;
  const handler = createHttpHandler(endpoint, transport);
  // This plugin's scope only: the transport reads and limits the body itself.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null));
  const serve = (request: FastifyRequest, reply: FastifyReply): void => {
    // The transport writes the node response itself, SSE streams included.
    reply.hijack();
    handler(request.raw, reply.raw, () => {
      reply.raw.statusCode = 404;
      reply.raw.end();
    });
  };
  app.all(transport.path ?? '/mcp', serve);
  if (transport.auth) app.get('/.well-known/oauth-protected-resource*', serve);
  app.addHook('onClose', () => handler.close());
};
