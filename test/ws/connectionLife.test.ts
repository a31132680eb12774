import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { legacyEra } from '@rondo/adapter-2025';
import { modernEra } from '@rondo/adapter-2026';
import { createEndpoint, createServer } from '@rondo/core';
import { text } from '@rondo/protocol';
import { serveWebSocket, type WebSocketServerHandle } from '@rondo/transport-ws';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WsClientTransport } from './support/wsClientTransport.js';

const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};

let handle: WebSocketServerHandle;
let client: WsClientTransport;
let aborted: string[];
let started: string[];

beforeEach(async () => {
  aborted = [];
  started = [];
  const server = createServer({ name: 'ws-life', version: '1.0.0', log: () => undefined }).tool(
    'slow',
    { description: 'Waits until its request is aborted.' },
    (_args, context) =>
      new Promise((resolve) => {
        started.push(context.era);
        context.signal.addEventListener('abort', () => {
          aborted.push(context.era);
          resolve(text('aborted'));
        });
      }),
  );
  handle = await serveWebSocket(
    createEndpoint(server, { modern: modernEra(), legacy: legacyEra() }),
    {
      keepAlive: false,
    },
  );
  client = new WsClientTransport(handle.url);
  await client.start();
});

afterEach(async () => {
  await client.close();
  await handle.close();
});

function send(message: Record<string, unknown>): void {
  void client.send({ jsonrpc: '2.0', ...message } as JSONRPCMessage);
}

async function until(condition: () => boolean): Promise<void> {
  for (let waited = 0; !condition(); waited += 20) {
    if (waited > 5000) throw new Error('condition did not hold in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function openLegacySession(): Promise<void> {
  send({
    id: 'init',
    method: 'initialize',
    params: {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'raw', version: '1' },
    },
  });
  await client.waitFor((m) => m.id === 'init');
  send({ method: 'notifications/initialized' });
}

describe('a socket closed mid-call, with the real era adapters', () => {
  it('aborts a modern handler and returns in-flight to 0', async () => {
    send({
      id: 1,
      method: 'tools/call',
      params: { name: 'slow', arguments: {}, _meta: MODERN_META },
    });
    await until(() => handle.inFlight === 1);
    client.terminate();
    await until(() => aborted.length === 1);
    await until(() => handle.connections === 0);
    expect(aborted).toEqual(['modern']);
    expect(handle.inFlight).toBe(0);
  });

  it('aborts a legacy session handler and returns in-flight to 0', async () => {
    await openLegacySession();
    send({ id: 2, method: 'tools/call', params: { name: 'slow', arguments: {} } });
    await until(() => handle.inFlight === 1);
    client.terminate();
    await until(() => aborted.length === 1 && handle.connections === 0);
    expect(aborted).toEqual(['legacy']);
    expect(handle.stats()).toMatchObject({ inFlight: 0, openExchanges: 0 });
  });

  it('aborts a legacy handler on notifications/cancelled and keeps the socket', async () => {
    await openLegacySession();
    send({ id: 3, method: 'tools/call', params: { name: 'slow', arguments: {} } });
    await until(() => started.length === 1);
    send({ method: 'notifications/cancelled', params: { requestId: 3, reason: 'test' } });
    await until(() => aborted.length === 1 && handle.inFlight === 0);
    expect(handle.connections).toBe(1);
  });

  it('aborts a modern handler on notifications/cancelled and keeps the socket', async () => {
    send({
      id: 4,
      method: 'tools/call',
      params: { name: 'slow', arguments: {}, _meta: MODERN_META },
    });
    await until(() => started.length === 1);
    send({ method: 'notifications/cancelled', params: { requestId: 4, _meta: MODERN_META } });
    await until(() => aborted.length === 1 && handle.inFlight === 0);
    expect(handle.connections).toBe(1);
  });
});
