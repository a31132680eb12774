import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { serveHttp, type HttpServerHandle } from '@rondo/transport-http';
import { fakeEndpoint } from './support/fakeEndpoint.js';
import { openStream, post, until } from './support/http.js';
import { scaled } from '@rondo/test-support/timeFactor';

const echo = { jsonrpc: '2.0', id: 1, method: 'echo', params: {} };

/** A socket that sends a request line and then one header byte now and then, never finishing. */
function dribble(port: number): { socket: Socket; closed: () => boolean } {
  let closed = false;
  const socket = connect(port, '127.0.0.1');
  socket.on('error', () => undefined);
  socket.on('close', () => (closed = true));
  socket.write('POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ');
  const timer = setInterval(() => socket.writable && socket.write('a'), 100);
  socket.on('close', () => clearInterval(timer));
  return { socket, closed: () => closed };
}

describe('connection limits of serveHttp', () => {
  let server: HttpServerHandle;
  const sockets: Socket[] = [];
  afterEach(async () => {
    for (const socket of sockets.splice(0)) socket.destroy();
    await server.close();
  });

  it('serves a request within 2 s while 200 sockets dribble headers, and closes those at the header timeout', async () => {
    server = await serveHttp(fakeEndpoint(), { headersTimeoutMs: 500 });
    const slow = Array.from({ length: 200 }, () => dribble(server.port));
    sockets.push(...slow.map((entry) => entry.socket));
    await new Promise((resolve) => setTimeout(resolve, 100));

    const started = Date.now();
    const response = await post(server.url, echo);
    expect(response.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(scaled(2000));

    await until(() => slow.every((entry) => entry.closed()), 3000);
  });

  it('closes sockets past maxConnections at once', async () => {
    server = await serveHttp(fakeEndpoint(), { maxConnections: 2 });
    const held = [dribble(server.port), dribble(server.port)];
    sockets.push(...held.map((entry) => entry.socket));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const extra = dribble(server.port);
    sockets.push(extra.socket);
    await until(() => extra.closed(), 2000);
    expect(held.some((entry) => entry.closed())).toBe(false);
  });

  it('leaves an open SSE stream alone past the request timeout', async () => {
    server = await serveHttp(fakeEndpoint(), { headersTimeoutMs: 100, requestTimeoutMs: 200 });
    const init = await post(server.url, { jsonrpc: '2.0', id: 1, method: 'initialize' });
    const session = { 'mcp-session-id': init.headers['mcp-session-id'] as string };
    const stream = await openStream(server.url, {
      method: 'GET',
      headers: { ...session, accept: 'text/event-stream' },
    });
    expect(stream.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1200));
    await post(server.url, { ...echo, method: 'notifyPeer', params: { text: 'late' } }, session);
    expect(JSON.parse((await stream.next()).data).params.data).toBe('late');
    stream.close();
  });
});
