import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import { ECHO_ARGUMENTS } from '../wire.js';
import {
  confirmForm,
  textObjectSchema,
  echoResult,
  fillerDescription,
  fillerToolNames,
} from './catalog.js';
import { argument, reportReady } from './control.js';

/**
 * The transport ceiling: what the bare transport costs with no MCP work at all. Over HTTP a
 * `node:http` server answers every POST with one fixed JSON-RPC response (the same size as a real
 * answer); over stdio and WebSocket each message is echoed back as is.
 *
 *   node ceiling.js --transport http|stdio|ws [--response echo|list|mrtr] [--tools N]
 */

function fixedResult(kind: string, tools: number): Record<string, unknown> {
  switch (kind) {
    case 'list':
      return {
        resultType: 'complete',
        tools: fillerToolNames(tools).map((name) => ({
          name,
          description: fillerDescription(name),
          inputSchema: textObjectSchema(),
        })),
      };
    case 'mrtr':
      return {
        resultType: 'input_required',
        inputRequests: {
          q1: {
            method: 'elicitation/create',
            params: { mode: 'form', message: 'Go on?', requestedSchema: confirmForm() },
          },
        },
        requestState: 'ceiling-state',
      };
    default:
      // As large as a real answer: the same result, resultType and serverInfo.
      return {
        ...echoResult(ECHO_ARGUMENTS.text),
        resultType: 'complete',
        _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'ceiling', version: '1.0.0' } },
      };
  }
}

function serveFixedHttp(body: Buffer): void {
  const headers = { 'content-type': 'application/json', 'content-length': String(body.length) };
  const server = createServer((req, res) => {
    req.on('data', () => undefined);
    req.on('end', () => {
      res.writeHead(200, headers);
      res.end(body);
    });
  });
  server.listen(0, '127.0.0.1', () =>
    reportReady({ port: (server.address() as AddressInfo).port, path: '/mcp' }),
  );
}

function serveEchoWebSocket(): void {
  const wss: WebSocketServer = new WebSocketServer(
    { host: '127.0.0.1', port: 0, path: '/ws' },
    () => reportReady({ port: (wss.address() as AddressInfo).port, path: '/ws' }),
  );
  wss.on('connection', (socket) => {
    socket.on('message', (data, isBinary) => socket.send(data, { binary: isBinary }));
  });
}

const transport = argument('transport', 'http');
if (transport === 'stdio') {
  process.stdin.pipe(process.stdout);
  reportReady();
} else if (transport === 'ws') {
  serveEchoWebSocket();
} else {
  const result = fixedResult(argument('response', 'echo'), Number(argument('tools', '1000')));
  serveFixedHttp(Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 1, result })));
}
