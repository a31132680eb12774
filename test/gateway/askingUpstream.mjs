// A legacy MCP upstream built on the official SDK (v1), for the gateway's caller isolation tests.
// `node askingUpstream.mjs stdio` serves it on stdio; `node askingUpstream.mjs http` on a free
// port of 127.0.0.1 (one MCP session per client), printing `listening on <url>` on stderr.
// Its tool `ask_twice` asks its client two questions at once (both in flight, related to the call
// as the SDK relates them: on the call's SSE stream over HTTP, nothing over stdio), each naming the
// call's `secret`, after waiting `delayMs`; it answers with both answers. `hello` answers at once.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  CallToolRequestSchema,
  ElicitResultSchema,
  ListToolsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';

const ASK_TWICE = {
  name: 'ask_twice',
  inputSchema: {
    type: 'object',
    properties: { secret: { type: 'string' }, delayMs: { type: 'number' } },
    required: ['secret'],
  },
};

const HELLO = { name: 'hello', inputSchema: { type: 'object', properties: {} } };

function makeServer() {
  const server = new Server({ name: 'asking', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [ASK_TWICE, HELLO] }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    if (request.params.name === 'hello') return { content: [{ type: 'text', text: 'hello' }] };
    const { secret, delayMs = 0 } = request.params.arguments ?? {};
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    const ask = (n) =>
      extra.sendRequest(
        {
          method: 'elicitation/create',
          params: {
            message: `Q${n} about ${secret}`,
            requestedSchema: {
              type: 'object',
              properties: { answer: { type: 'string' } },
              required: ['answer'],
            },
          },
        },
        ElicitResultSchema,
      );
    const [first, second] = await Promise.all([ask(1), ask(2)]);
    return {
      content: [
        { type: 'text', text: `${secret}: ${first.content?.answer} + ${second.content?.answer}` },
      ],
    };
  });
  return server;
}

if (process.argv[2] === 'http') {
  const sessions = new Map();
  const http = createServer(async (req, res) => {
    const id = req.headers['mcp-session-id'];
    let transport = typeof id === 'string' ? sessions.get(id) : undefined;
    if (!transport) {
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sessionId) => sessions.set(sessionId, transport),
      });
      await makeServer().connect(transport);
    }
    await transport.handleRequest(req, res);
  });
  http.listen(0, '127.0.0.1', () => {
    console.error(`listening on http://127.0.0.1:${http.address().port}/mcp`);
  });
} else {
  await makeServer().connect(new StdioServerTransport());
}
