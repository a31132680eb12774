import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer, createMcpHandler, inputRequired } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { z } from 'zod';
import { echoResult, fillerDescription, fillerToolNames } from './catalog.js';
import { argument, reportReady } from './control.js';

/**
 * The official SDK v2 (`@modelcontextprotocol/server`) serving the same tools: `createMcpHandler`
 * behind a small `node:http` adapter of our own, or `serveStdio`.
 *
 *   node sdk.js --transport http|stdio [--tools N]
 */

const fillers = Number(argument('tools', '0'));

function makeServer(): McpServer {
  const server = new McpServer(
    { name: 'sdk-bench', version: '1.0.0' },
    { capabilities: { tools: {} } },
  );
  const input = z.object({ text: z.string() });
  server.registerTool(
    'echo',
    { description: 'Echoes its text.', inputSchema: input },
    ({ text }) => echoResult(text) as { content: { type: 'text'; text: string }[] },
  );
  server.registerTool(
    'mrtr',
    { description: 'Asks twice, then echoes.', inputSchema: input },
    ({ text }, ctx) => {
      const step = Number(ctx.mcpReq.requestState<string>() ?? '0');
      if (step < 2) {
        const ask = inputRequired.elicit({
          message: 'Go on?',
          requestedSchema: {
            type: 'object',
            properties: { ok: { type: 'boolean' } },
            required: ['ok'],
          },
        });
        return inputRequired({
          inputRequests: { [`q${step + 1}`]: ask },
          requestState: String(step + 1),
        });
      }
      return echoResult(text) as { content: { type: 'text'; text: string }[] };
    },
  );
  for (const name of fillerToolNames(fillers)) {
    server.registerTool(name, { description: fillerDescription(name), inputSchema: input }, () => ({
      content: [{ type: 'text', text: name }],
    }));
  }
  return server;
}

type Handler = ReturnType<typeof createMcpHandler>;

/** A minimal node adapter for the web-standard handler: body in, status, headers and body out. */
function nodeAdapter(handler: Handler, port: () => number) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const abort = new AbortController();
    res.on('close', () => abort.abort());
    const headers = new Headers();
    for (let i = 0; i < req.rawHeaders.length; i += 2)
      headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
    const response = await handler.fetch(
      new Request(`http://127.0.0.1:${port()}${req.url ?? '/'}`, {
        method: req.method ?? 'GET',
        headers,
        body: hasBody ? Buffer.concat(chunks) : undefined,
        signal: abort.signal,
      }),
    );
    res.writeHead(response.status, Object.fromEntries(response.headers));
    if (response.body) for await (const chunk of response.body) res.write(chunk);
    res.end();
  };
}

if (argument('transport', 'http') === 'stdio') {
  serveStdio(() => makeServer(), { legacy: 'serve', onerror: () => undefined });
  reportReady();
} else {
  const handler = createMcpHandler(() => makeServer(), {
    legacy: 'stateless',
    onerror: () => undefined,
  });
  let port = 0;
  const serve = nodeAdapter(handler, () => port);
  const server = createServer((req, res) => {
    serve(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  server.listen(0, '127.0.0.1', () => {
    port = (server.address() as AddressInfo).port;
    reportReady({ port, path: '/mcp' });
  });
}
