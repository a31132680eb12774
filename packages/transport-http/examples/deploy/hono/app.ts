import { Hono } from 'hono';
import { z } from 'zod';
import { createServer, text } from '@rondo/core';
import { composeEndpoint } from '@rondo/server/endpoint';
import { mcpHono } from '@rondo/server/hono';

const server = createServer({ name: 'hono-example', version: '1.0.0' }).tool(
  'add',
  { description: 'Adds two numbers', input: z.object({ a: z.number(), b: z.number() }) },
  ({ a, b }) => text(String(a + b)),
);

/** A Hono app with its own routes and the MCP endpoint at /mcp; serve it on any runtime. */
export const mcp = mcpHono(composeEndpoint(server));
export const app = new Hono();
app.get('/', (c) => c.text('Hello from Hono'));
app.all('/mcp', mcp);
// On Node: serve({ fetch: app.fetch, port: 3000 }) from '@hono/node-server';
// on Bun: export default app; on Deno: Deno.serve(app.fetch); on Workers: export default app.
