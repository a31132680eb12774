import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { serveWebSocket, type WebSocketServerHandle } from '@rondo/transport-ws';
import { scriptedEndpoint } from './support/scriptedEndpoint.js';
import { TestClient, refusedHandshake } from './support/testClient.js';

let handle: WebSocketServerHandle | undefined;
afterEach(async () => {
  await handle?.close();
  handle = undefined;
});

async function start(
  options: Parameters<typeof serveWebSocket>[1] = {},
): Promise<WebSocketServerHandle> {
  handle = await serveWebSocket(scriptedEndpoint().endpoint, options);
  return handle;
}

describe('the WebSocket handshake', () => {
  it('binds 127.0.0.1 and serves /ws by default', async () => {
    const { url } = await start();
    expect(url).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/ws$/);
  });

  it('selects the mcp subprotocol when offered among others', async () => {
    const client = await TestClient.open((await start()).url, ['chat', 'mcp']);
    expect(client.socket.protocol).toBe('mcp');
    client.close();
  });

  it('refuses a handshake that offers only other subprotocols with 400 and a reason', async () => {
    const answer = await refusedHandshake((await start()).url, ['graphql-ws', 'chat']);
    expect(answer.status).toBe(400);
    expect(answer.body).toContain('requires the WebSocket subprotocol "mcp"');
    expect(answer.body).toContain('graphql-ws, chat');
  });

  it('refuses a handshake that offers no subprotocol with 400', async () => {
    const answer = await refusedHandshake((await start()).url, []);
    expect(answer).toMatchObject({ status: 400 });
    expect(answer.body).toContain('no subprotocol was offered');
  });

  it('answers a Host / Origin guard refusal with 403 and the reason in the body (the cases: test/guard)', async () => {
    const answer = await refusedHandshake((await start()).url, ['mcp'], {
      Origin: 'http://evil.example.com',
    });
    expect(answer.status).toBe(403);
    expect(answer.body).toContain('Origin "http://evil.example.com" is not allowed');
  });

  it('answers an upgrade for another path with 404 when nothing else takes it', async () => {
    const { port } = await start();
    const answer = await refusedHandshake(`ws://127.0.0.1:${port}/elsewhere`, ['mcp']);
    expect(answer.status).toBe(404);
  });

  it('answers plain HTTP with 426 naming the path and subprotocol', async () => {
    const { port } = await start();
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      request({ host: '127.0.0.1', port, path: '/ws' }, (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += String(chunk)));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      })
        .on('error', reject)
        .end();
    });
    expect(answer.status).toBe(426);
    expect(answer.body).toContain('subprotocol "mcp"');
  });
});

describe('serveWebSocket', () => {
  it('rejects when the port is taken, leaving nothing behind', async () => {
    const first = await start();
    await expect(serveWebSocket(scriptedEndpoint().endpoint, { port: first.port })).rejects.toThrow(
      /EADDRINUSE/,
    );
  });
});
