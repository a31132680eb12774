import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { argument, reportReady } from './control.js';
import { fixedAnswer } from './fixedAnswers.js';

/**
 * Bare Hono on `@hono/node-server`: one route that reads the POST body and answers the same fixed
 * JSON the node:http ceiling sends, with no MCP work. What any fetch handler on Node pays for the
 * adapter's conversion and Hono's routing, so the honest ceiling of Rondo's fetch handler on Node.
 *
 *   node honoBare.js [--response echo|list|mrtr] [--tools N]
 */
const body = fixedAnswer(argument('response', 'echo'), Number(argument('tools', '1000')));
const app = new Hono();
app.post('/mcp', async (c) => {
  await c.req.text();
  return c.body(body, 200, { 'content-type': 'application/json' });
});
const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
server.once('listening', () =>
  reportReady({ port: (server.address() as AddressInfo).port, path: '/mcp' }),
);
