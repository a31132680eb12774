// bun run server.ts   (serves http://localhost:3000/mcp)
import { z } from 'zod';
import { createServer, text } from '@rondo/core';
import { composeEndpoint } from '@rondo/server/endpoint';
import { createFetchHandler } from '@rondo/server/fetch';

const server = createServer({ name: 'bun-example', version: '1.0.0' }).tool(
  'add',
  { description: 'Adds two numbers', input: z.object({ a: z.number(), b: z.number() }) },
  ({ a, b }) => text(String(a + b)),
);
const handler = createFetchHandler(composeEndpoint(server));
const listening = Bun.serve({
  port: Number(Bun.env.PORT ?? 3000),
  hostname: '127.0.0.1',
  // Bun closes connections idle for 10 s by default; SSE streams may idle longer.
  idleTimeout: 0,
  fetch: (request) => handler(request),
});
console.log(`MCP server at http://localhost:${listening.port}/mcp`);
