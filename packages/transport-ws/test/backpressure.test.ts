import { afterEach, describe, expect, it } from 'vitest';
import { serveWebSocket, type WebSocketServerHandle } from '@rondo/transport-ws';
import { scriptedEndpoint, type EndpointLog } from './support/scriptedEndpoint.js';
import { TestClient, eventually } from './support/testClient.js';

const KIB = 1024;
const PAUSE_ABOVE = 256 * KIB;
const ANSWER_BYTES = 64 * KIB;

let handle: WebSocketServerHandle | undefined;
let log: EndpointLog;
afterEach(async () => {
  await handle?.close();
  handle = undefined;
});

async function start(closeAboveBytes: number): Promise<string> {
  const scripted = scriptedEndpoint();
  log = scripted.log;
  handle = await serveWebSocket(scripted.endpoint, {
    keepAlive: false,
    backpressure: { pauseAboveBytes: PAUSE_ABOVE, closeAboveBytes },
  });
  return handle.url;
}

describe('backpressure against a peer that does not read', () => {
  it('stops reading requests while the backlog is over the cap, so buffered bytes stay bounded', async () => {
    const client = await TestClient.open(await start(64 * 1024 * KIB));
    client.socket.pause();
    const requests = 400; // 25 MiB of answers, far more than the kernel buffers hold
    for (let id = 0; id < requests; id++)
      client.send({ jsonrpc: '2.0', id, method: 'big', params: { bytes: ANSWER_BYTES } });
    await eventually(() => handle!.stats().pausedConnections === 1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const stats = handle!.stats();
    expect(stats.pausedConnections).toBe(1);
    expect(log.received.length).toBeLessThan(requests);
    expect(stats.peakBufferedBytes).toBeLessThanOrEqual(PAUSE_ABOVE + 2 * ANSWER_BYTES);

    client.socket.resume();
    await eventually(() => client.messages.length === requests, 20_000);
    expect(client.messages.map((m) => m.id)).toEqual([...Array(requests).keys()]);
    expect(handle!.stats().pausedConnections).toBe(0);
    client.close();
  });

  it('drops a connection whose backlog passes the hard limit', async () => {
    const client = await TestClient.open(await start(1024 * KIB));
    client.socket.pause();
    client.send({
      jsonrpc: '2.0',
      id: 1,
      method: 'flood',
      params: { count: 400, bytes: ANSWER_BYTES },
    });
    await eventually(() => log.connectionsClosed === 1);
    expect(handle!.connections).toBe(0);
    client.socket.resume();
    expect((await client.closed).code).toBe(1006);
  });
});
