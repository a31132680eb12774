import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import { argument, reportReady } from './control.js';
import { fixedAnswer } from './fixedAnswers.js';
import { serveJsonLines } from './jsonLinesEcho.js';

/**
 * The transport ceiling: what the bare transport costs with no MCP work at all. Over HTTP a
 * `node:http` server answers every POST with one fixed JSON-RPC response (the same size as a real
 * answer); over stdio and WebSocket each message is echoed back as is. `stdio-json` is the bare
 * JSON-lines server (each line parsed and answered, see `jsonLinesEcho.ts`).
 *
 *   node ceiling.js --transport http|stdio|stdio-json|ws [--response echo|list|mrtr] [--tools N]
 */

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
} else if (transport === 'stdio-json') {
  serveJsonLines();
  reportReady();
} else if (transport === 'ws') {
  serveEchoWebSocket();
} else {
  serveFixedHttp(
    Buffer.from(fixedAnswer(argument('response', 'echo'), Number(argument('tools', '1000')))),
  );
}
