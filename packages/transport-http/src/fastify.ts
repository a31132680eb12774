import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Endpoint } from '@rondo/core';
import { createHttpHandler } from './handler.js';
import type { HttpTransportOptions } from './options.js';

/** What {@link mcpFastify} registers with: the endpoint and the transport's options. */
export interface McpFastifyOptions extends HttpTransportOptions {
  endpoint: Endpoint;
}

/** The members of a Fastify request and reply used here. */
interface FastifyExchangeLike {
  request: { raw: IncomingMessage };
  reply: { hijack(): void; raw: ServerResponse };
}

type FastifyRouteHandler = (
  request: FastifyExchangeLike['request'],
  reply: FastifyExchangeLike['reply'],
) => void;

/**
 * The members of a Fastify instance the plugin uses. Typed by shape, not by fastify's own types:
 * fastify is an optional peer, so a consumer without it must still compile these declarations.
 */
export interface FastifyInstanceLike {
  removeAllContentTypeParsers(): unknown;
  addContentTypeParser(
    contentType: string,
    parser: (request: unknown, payload: unknown, done: (error: null) => void) => void,
  ): unknown;
  all(path: string, handler: FastifyRouteHandler): unknown;
  get(path: string, handler: FastifyRouteHandler): unknown;
  addHook(name: 'onClose', hook: () => Promise<void>): unknown;
}

/**
 * A Fastify plugin serving an MCP endpoint at `options.path` (default `/mcp`), plus the Protected
 * Resource Metadata when `options.auth` is set, over the node handler:
 * `app.register(mcpFastify, { endpoint })`. Its routes take the body unparsed (the transport reads
 * it under its own limit), and the sessions end when the app closes.
 */
export const mcpFastify = async (
  app: FastifyInstanceLike,
  options: McpFastifyOptions,
): Promise<void> => {
  const { endpoint, ...transport } = options;
  const handler = createHttpHandler(endpoint, transport);
  // This plugin's scope only: the transport reads and limits the body itself.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null));
  const serve: FastifyRouteHandler = (request, reply) => {
    // The transport writes the node response itself, SSE streams included.
    reply.hijack();
    handler(request.raw, reply.raw, () => {
      reply.raw.statusCode = 404;
      reply.raw.end();
    });
  };
  app.all(transport.path ?? '/mcp', serve);
  if (transport.auth) app.all('/.well-known/oauth-protected-resource*', serve);
  for (const route of endpoint.routes ?? []) app.all(route.path, serve);
  app.addHook('onClose', () => handler.close());
};
