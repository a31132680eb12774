import { connect } from 'node:net';
import { legacyEra } from '@rondo/adapter-2025';
import { modernEra } from '@rondo/adapter-2026';
import { createEndpoint, createServer, type Endpoint } from '@rondo/core';
import { serveHttp } from '@rondo/transport-http';
import { serveWebSocket } from '@rondo/transport-ws';
import { afterAll, describe, expect, it } from 'vitest';

// Issue 31, point 12: a request with two Host header lines is answered 400 (RFC 9112, 3.2), over
// Streamable HTTP and on a WebSocket upgrade alike, whatever the Host policy; node keeps the first
// and drops the second, so the check reads the raw header lines.

const endpoints: Endpoint[] = [];
function endpoint(): Endpoint {
  const server = createServer({ name: 'hosts', version: '1.0.0' });
  const composed = createEndpoint(server, { modern: modernEra(), legacy: legacyEra() });
  endpoints.push(composed);
  return composed;
}
afterAll(async () => {
  for (const composed of endpoints) await composed.close();
});

/** Sends `head` raw on a fresh connection; resolves with the status line's code. */
function statusOf(port: number, head: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(head));
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      text += chunk;
      const match = /^HTTP\/1\.1 (\d{3})/.exec(text);
      if (match) {
        resolve(Number(match[1]));
        socket.destroy();
      }
    });
    socket.once('error', reject);
  });
}

const BODY = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'hosts', version: '1.0.0' },
  },
});
const post = (port: number, hosts: string[]) =>
  [
    'POST /mcp HTTP/1.1',
    ...hosts.map((host) => `Host: ${host}`),
    'Content-Type: application/json',
    'Accept: application/json, text/event-stream',
    `Content-Length: ${BODY.length}`,
    'Connection: close',
    '',
    BODY,
  ].join('\r\n');
const upgrade = (hosts: string[]) =>
  [
    'GET /ws HTTP/1.1',
    ...hosts.map((host) => `Host: ${host}`),
    'Upgrade: websocket',
    'Connection: Upgrade',
    'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
    'Sec-WebSocket-Version: 13',
    'Sec-WebSocket-Protocol: mcp',
    '',
    '',
  ].join('\r\n');

describe('two Host headers', () => {
  it.each([{}, { allowedHosts: 'any' as const }])(
    'get 400 from serveHttp (%o), one gets served',
    async (guard) => {
      const http = await serveHttp(endpoint(), guard);
      try {
        const host = `127.0.0.1:${http.port}`;
        expect(await statusOf(http.port, post(http.port, [host, 'evil.example.com']))).toBe(400);
        expect(await statusOf(http.port, post(http.port, [host, host]))).toBe(400);
        expect(await statusOf(http.port, post(http.port, [host]))).toBe(200);
      } finally {
        await http.close();
      }
    },
  );

  it('get 400 on a WebSocket upgrade, one gets upgraded', async () => {
    const ws = await serveWebSocket(endpoint());
    try {
      const host = `127.0.0.1:${ws.port}`;
      expect(await statusOf(ws.port, upgrade([host, 'evil.example.com']))).toBe(400);
      expect(await statusOf(ws.port, upgrade([host]))).toBe(101);
    } finally {
      await ws.close();
    }
  });
});
