import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { serveWebSocket, type WebSocketServerHandle } from '@rondo/transport-ws';
import { scriptedEndpoint } from './support/scriptedEndpoint.js';
import { TestClient, eventually } from './support/testClient.js';

let handle: WebSocketServerHandle | undefined;
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await handle?.close();
  handle = undefined;
});

/** An upgrade request whose headers arrive one byte at a time and never end. */
function dribble(port: number): { closed: () => boolean } {
  let closed = false;
  const socket = connect(port, '127.0.0.1');
  sockets.push(socket);
  socket.on('error', () => undefined);
  socket.write('GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nX-Slow: ');
  const timer = setInterval(() => socket.writable && socket.write('a'), 100);
  socket.on('close', () => {
    closed = true;
    clearInterval(timer);
  });
  return { closed: () => closed };
}

describe('connection limits of serveWebSocket', () => {
  it('closes upgrade requests that dribble headers at the header timeout, serving a real client meanwhile', async () => {
    handle = await serveWebSocket(scriptedEndpoint().endpoint, {
      keepAlive: false,
      headersTimeoutMs: 500,
    });
    const slow = Array.from({ length: 50 }, () => dribble(handle!.port));
    const client = await TestClient.open(handle.url);
    await eventually(() => handle!.connections === 1);
    await eventually(() => slow.every((entry) => entry.closed()), 3000);
    // An upgraded socket is no longer an HTTP request: the header timeout does not touch it.
    expect(handle.connections).toBe(1);
    client.close();
  });

  it('closes sockets past maxConnections at once', async () => {
    handle = await serveWebSocket(scriptedEndpoint().endpoint, {
      keepAlive: false,
      maxConnections: 1,
    });
    const client = await TestClient.open(handle.url);
    const extra = dribble(handle.port);
    await eventually(() => extra.closed(), 2000);
    expect(handle.connections).toBe(1);
    client.close();
  });

  it('leaves an upgraded socket open past the request timeout', async () => {
    handle = await serveWebSocket(scriptedEndpoint().endpoint, {
      keepAlive: false,
      headersTimeoutMs: 100,
      requestTimeoutMs: 200,
    });
    const client = await TestClient.open(handle.url);
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(handle.connections).toBe(1);
    client.close();
  });
});
