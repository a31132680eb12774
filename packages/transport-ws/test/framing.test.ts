import { afterEach, describe, expect, it } from 'vitest';
import { serveWebSocket, type WebSocketServerHandle } from '@rondo/transport-ws';
import { scriptedEndpoint, type EndpointLog } from './support/scriptedEndpoint.js';
import { TestClient } from './support/testClient.js';

let handle: WebSocketServerHandle | undefined;
let log: EndpointLog;
afterEach(async () => {
  await handle?.close();
  handle = undefined;
});

async function connect(options: Parameters<typeof serveWebSocket>[1] = {}): Promise<TestClient> {
  const scripted = scriptedEndpoint();
  log = scripted.log;
  handle = await serveWebSocket(scripted.endpoint, { keepAlive: false, ...options });
  return TestClient.open(handle.url);
}

describe('one JSON-RPC message per text frame', () => {
  it('answers a request on the same socket', async () => {
    const client = await connect();
    expect(await client.request(1, 'echo', { a: 1 })).toEqual({
      jsonrpc: '2.0',
      id: 1,
      result: { params: { a: 1 } },
    });
    client.close();
  });

  it('writes the messages an exchange sends before its answer, in order', async () => {
    const client = await connect();
    await client.request('p', 'progress');
    expect(
      client.messages.map((m) => (m.params as { progress?: number } | undefined)?.progress ?? m.id),
    ).toEqual([1, 2, 'p']);
    client.close();
  });

  it('writes messages the connection sends on its own channel', async () => {
    const client = await connect();
    await client.request(1, 'flood', { count: 3, bytes: 1 });
    expect(client.messages.filter((m) => m.method === 'flood')).toHaveLength(3);
    client.close();
  });

  it('answers invalid JSON with -32700 and keeps the connection open', async () => {
    const client = await connect();
    client.socket.send('{not json');
    const error = await client.waitFor((m) => 'error' in m);
    expect(error).toMatchObject({ id: null, error: { code: -32700 } });
    expect(await client.request(2, 'echo')).toMatchObject({ id: 2, result: {} });
    client.close();
  });

  it('answers a structurally invalid message with -32600 carrying its id', async () => {
    const client = await connect();
    client.send({ jsonrpc: '1.0', id: 7, method: 'echo' });
    expect(await client.waitFor((m) => m.id === 7)).toMatchObject({ error: { code: -32600 } });
    client.close();
  });

  it('answers a handler that throws with an internal error', async () => {
    const client = await connect();
    expect(await client.request(3, 'throw')).toMatchObject({ error: { code: -32603 } });
    client.close();
  });

  it('closes with 1003 on a binary frame', async () => {
    const client = await connect();
    client.socket.send(Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'echo' })), {
      binary: true,
    });
    const { code, reason } = await client.closed;
    expect(code).toBe(1003);
    expect(reason).toContain('text frames');
    expect(log.received).toHaveLength(0);
  });

  it('closes with 1009 on a frame over the limit', async () => {
    const client = await connect({ maxFrameBytes: 1024 });
    client.send({ jsonrpc: '2.0', id: 1, method: 'echo', params: { pad: 'z'.repeat(2000) } });
    expect((await client.closed).code).toBe(1009);
    expect(log.received).toHaveLength(0);
  });

  it('accepts a frame just under the default 4 MiB limit', async () => {
    const client = await connect();
    const pad = 'z'.repeat(4 * 1024 * 1024 - 200);
    const answer = await client.request(1, 'echo', { pad });
    expect((answer.result as { params: { pad: string } }).params.pad).toHaveLength(pad.length);
    client.close();
  });
});
