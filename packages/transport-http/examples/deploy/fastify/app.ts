import Fastify from 'fastify';
import { z } from 'zod';
import { createServer, text } from '@rondo/core';
import { composeEndpoint } from '@rondo/server/endpoint';
import { mcpFastify } from '@rondo/server/fastify';

const server = createServer({ name: 'fastify-example', version: '1.0.0' }).tool(
  'add',
  { description: 'Adds two numbers', input: z.object({ a: z.number(), b: z.number() }) },
  ({ a, b }) => text(String(a + b)),
);

/** A Fastify app with its own routes and the MCP endpoint at /mcp. */
export async function buildApp() {
  const app = Fastify();
  app.get('/', async () => 'Hello from Fastify');
  await app.register(mcpFastify, {
    endpoint: composeEndpoint(server),
  });
  return app;
}
// const app = await buildApp(); await app.listen({ port: 3000 });
