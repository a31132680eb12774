import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer, createMcpHandler, inputRequired } from '@modelcontextprotocol/server';
import { z } from 'zod';

/**
 * A server written with the official SDK v2 (`@modelcontextprotocol/server`), served over HTTP on
 * 127.0.0.1 through its web-standard handler: by default an `echo` tool and `confirm`, a tool that
 * answers `input_required` with an elicitation and a request state before it answers; `make`
 * builds another server per request.
 */
export async function startSdkServer(
  make: () => McpServer = makeServer,
): Promise<{ url: string; close(): Promise<void> }> {
  const handler = createMcpHandler(make, { onerror: () => undefined });
  const server: Server = createServer((req, res) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const headers = new Headers();
      for (let i = 0; i < req.rawHeaders.length; i += 2)
        headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
      const { port } = server.address() as AddressInfo;
      const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
      const response = await handler.fetch(
        new Request(`http://127.0.0.1:${port}${req.url ?? '/'}`, {
          method: req.method ?? 'GET',
          headers,
          body: hasBody ? Buffer.concat(chunks) : undefined,
        }),
      );
      res.writeHead(response.status, Object.fromEntries(response.headers));
      if (response.body) for await (const chunk of response.body) res.write(chunk);
      res.end();
    })().catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function makeServer(): McpServer {
  const server = new McpServer(
    { name: 'sdk-v2-server', version: '1.0.0' },
    { capabilities: { tools: {} } },
  );
  server.registerTool(
    'echo',
    { description: 'Echoes its text.', inputSchema: z.object({ text: z.string() }) },
    ({ text }) => ({ content: [{ type: 'text' as const, text }] }),
  );
  server.registerTool(
    'confirm',
    {
      description: 'Asks for a confirmation, then reports it.',
      inputSchema: z.object({ what: z.string() }),
    },
    ({ what }, ctx) => {
      const state = ctx.mcpReq.requestState<string>();
      const answer = ctx.mcpReq.inputResponses?.confirm as
        { action?: string; content?: { ok?: boolean } } | undefined;
      if (state !== 'asked' || answer === undefined) {
        return inputRequired({
          inputRequests: {
            confirm: inputRequired.elicit({
              message: `Go ahead with ${what}?`,
              requestedSchema: {
                type: 'object',
                properties: { ok: { type: 'boolean' } },
                required: ['ok'],
              },
            }),
          },
          requestState: 'asked',
        });
      }
      return {
        content: [{ type: 'text' as const, text: `${what}: ${String(answer.content?.ok)}` }],
      };
    },
  );
  return server;
}
