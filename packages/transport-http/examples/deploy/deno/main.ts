// deno run --allow-net --allow-env --allow-read main.ts   (serves http://localhost:8000/mcp)
import { z } from 'zod';
import { createServer, text } from '@rondo/core';
import { composeEndpoint } from '@rondo/server/endpoint';
import { createFetchHandler } from '@rondo/server/fetch';

const server = createServer({ name: 'deno-example', version: '1.0.0' }).tool(
  'add',
  { description: 'Adds two numbers', input: z.object({ a: z.number(), b: z.number() }) },
  ({ a, b }) => text(String(a + b)),
);
// One long-lived process: both eras, legacy sessions included.
const handler = createFetchHandler(composeEndpoint(server));
const port = Number(Deno.env.get('PORT') ?? 8000);
Deno.serve(
  {
    port,
    hostname: '127.0.0.1',
    onListen: ({ port }) => console.log(`MCP server at http://localhost:${port}/mcp`),
  },
  (request) => handler(request),
);
