import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigurationError } from '@rondo/core';
import { attachWebSocket, type WebSocketAttachment } from '@rondo/transport-ws';
import { scriptedEndpoint } from './support/scriptedEndpoint.js';
import { TestClient, eventually, refusedHandshake } from './support/testClient.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(
    () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  );
  return (server.address() as AddressInfo).port;
}

function track(attachment: WebSocketAttachment): WebSocketAttachment {
  cleanups.push(() => attachment.close());
  return attachment;
}

describe('attachWebSocket', () => {
  it('shares a port with an express app', async () => {
    const app = express();
    app.get('/health', (_request, response) => void response.json({ ok: true }));
    const server = createServer(app);
    const attachment = track(
      attachWebSocket(scriptedEndpoint().endpoint, { httpServer: server, path: '/mcp-ws' }),
    );
    const port = await listen(server);

    const health = await fetch(`http://127.0.0.1:${port}/health`);
    expect(await health.json()).toEqual({ ok: true });
    const client = await TestClient.open(`ws://127.0.0.1:${port}/mcp-ws`);
    expect(await client.request(1, 'echo')).toMatchObject({ id: 1, result: {} });
    expect(attachment.connections).toBe(1);
    client.close();
    await eventually(() => attachment.connections === 0);
  });

  it('leaves upgrades for other paths to other listeners', async () => {
    const server = createServer();
    track(attachWebSocket(scriptedEndpoint().endpoint, { httpServer: server }));
    const seen: string[] = [];
    server.on('upgrade', (request, socket) => {
      if (request.url === '/other') {
        seen.push(request.url);
        socket.end('HTTP/1.1 418 I am a teapot\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      }
    });
    const port = await listen(server);
    expect((await refusedHandshake(`ws://127.0.0.1:${port}/other`, ['mcp'])).status).toBe(418);
    expect(seen).toEqual(['/other']);
  });

  it('takes upgrades the caller routes to it with noServer', async () => {
    const server = createServer();
    const attachment = track(attachWebSocket(scriptedEndpoint().endpoint, { noServer: true }));
    server.on('upgrade', (request, socket, head) => {
      if (!attachment.handleUpgrade(request, socket, head)) socket.destroy();
    });
    const port = await listen(server);
    const client = await TestClient.open(`ws://127.0.0.1:${port}/ws?token=abc`);
    expect(await client.request('a', 'echo', { x: 1 })).toMatchObject({
      result: { params: { x: 1 } },
    });
    client.close();
    const refused = await refusedHandshake(`ws://127.0.0.1:${port}/ws`, ['other']);
    expect(refused.status).toBe(400);
  });

  it('refuses a configuration with neither or both of httpServer and noServer', () => {
    const { endpoint } = scriptedEndpoint();
    expect(() => attachWebSocket(endpoint, {})).toThrow(ConfigurationError);
    expect(() => attachWebSocket(endpoint, { httpServer: createServer(), noServer: true })).toThrow(
      ConfigurationError,
    );
  });

  it('refuses new upgrades once closed', async () => {
    const server = createServer();
    const attachment = attachWebSocket(scriptedEndpoint().endpoint, { noServer: true });
    server.on('upgrade', (request, socket, head) =>
      attachment.handleUpgrade(request, socket, head),
    );
    const port = await listen(server);
    await attachment.close();
    expect((await refusedHandshake(`ws://127.0.0.1:${port}/ws`, ['mcp'])).status).toBe(503);
  });
});
