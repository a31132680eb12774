import { afterEach, describe, expect, it } from 'vitest';
import { serveWebSocket, type WebSocketServerHandle } from '@rondo/transport-ws';
import { scriptedEndpoint, type EndpointLog } from './support/scriptedEndpoint.js';
import { TestClient, eventually } from './support/testClient.js';

let handle: WebSocketServerHandle | undefined;
let log: EndpointLog;
afterEach(async () => {
  await handle?.close();
  handle = undefined;
});

async function start(
  options: Parameters<typeof serveWebSocket>[1] = {},
): Promise<WebSocketServerHandle> {
  const scripted = scriptedEndpoint();
  log = scripted.log;
  handle = await serveWebSocket(scripted.endpoint, { keepAlive: false, ...options });
  return handle;
}

describe('the life of a WebSocket connection', () => {
  it('opens one endpoint connection per socket', async () => {
    const { url } = await start();
    const [a, b] = await Promise.all([TestClient.open(url), TestClient.open(url)]);
    await eventually(() => handle!.connections === 2);
    expect(log.connectionsOpened).toBe(2);
    a.close();
    b.close();
    await eventually(() => handle!.connections === 0 && log.connectionsClosed === 2);
  });

  it('aborts the handler of a socket closed mid-call, and in-flight returns to 0', async () => {
    const { url } = await start();
    const client = await TestClient.open(url);
    client.send({ jsonrpc: '2.0', id: 'slow', method: 'wait' });
    await eventually(() => handle!.inFlight === 1);
    expect(handle!.stats()).toMatchObject({ connections: 1, inFlight: 1, openExchanges: 1 });
    client.socket.terminate();
    await eventually(() => log.aborted.includes('slow'));
    await eventually(() => handle!.connections === 0);
    expect(handle!.inFlight).toBe(0);
    expect(log.connections[0]!.inFlight).toBe(0);
    expect(log.connectionsClosed).toBe(1);
  });

  it('aborts in-flight handlers and closes sockets with 1001 when the server closes', async () => {
    const { url } = await start();
    const client = await TestClient.open(url);
    client.send({ jsonrpc: '2.0', id: 1, method: 'wait' });
    await eventually(() => handle!.inFlight === 1);
    await handle!.close();
    handle = undefined;
    expect((await client.closed).code).toBe(1001);
    expect(log.aborted).toEqual(['1']);
    expect(log.connectionsClosed).toBe(1);
  });

  it('drops a peer that stops answering pings', async () => {
    const { url } = await start({ keepAlive: { intervalMs: 40, timeoutMs: 60 } });
    const client = await TestClient.open(url, ['mcp'], { autoPong: false });
    client.send({ jsonrpc: '2.0', id: 1, method: 'wait' });
    await eventually(() => handle!.inFlight === 1);
    expect((await client.closed).code).toBe(1006);
    await eventually(() => handle!.connections === 0);
    expect(log.aborted).toEqual(['1']);
  });

  it('keeps a peer that answers pings', async () => {
    const { url } = await start({ keepAlive: { intervalMs: 20, timeoutMs: 2000 } });
    const client = await TestClient.open(url);
    let pings = 0;
    client.socket.on('ping', () => (pings += 1));
    await eventually(() => pings >= 5);
    expect(await client.request(1, 'echo')).toMatchObject({ result: {} });
    client.close();
  });
});
