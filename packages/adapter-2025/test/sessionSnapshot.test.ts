import { LazyAbortController } from '@rondo/core/internal';
import { expect, it } from 'vitest';
import { legacyEra } from '@rondo/adapter-2025';
import { modernEra } from '@rondo/adapter-2026';
import {
  createEndpoint,
  createServer,
  contents,
  text,
  textContent,
  type Connection,
  type Disposition,
  type Peer,
  type PeerSendOptions,
} from '@rondo/core';
import type { JsonObject, JsonRpcMessage } from '@rondo/protocol';

interface Outcome {
  message: JsonRpcMessage | undefined;
  disposition: Disposition | undefined;
}

/** Hands one message to a connection and resolves with how its exchange ended. */
function exchange(connection: Connection, message: JsonRpcMessage): Promise<Outcome> {
  return new Promise((resolve) => {
    connection.receive(message, {
      send: () => undefined,
      end: (answer, disposition) => resolve({ message: answer, disposition }),
      cancellation: new LazyAbortController(),
    });
  });
}

function recordingPeer(): Peer & { sent: [JsonRpcMessage, PeerSendOptions | undefined][] } {
  const sent: [JsonRpcMessage, PeerSendOptions | undefined][] = [];
  return { sent, send: (message, options) => sent.push([message, options]) };
}

function request(id: number, method: string, params: JsonObject = {}): JsonRpcMessage {
  return { jsonrpc: '2.0', id, method, params };
}

async function initializedSession() {
  const server = createServer({ name: 'snap', version: '1.0.0', log: () => {} })
    .tool('hello', {}, () => text('hi'))
    .resource('test://r', { name: 'r' }, (uri) => contents([textContent(uri, 'text/plain', 'r')]));
  server.provider({ name: 'changes', capabilities: () => ({ subscribe: true }) });
  const endpoint = createEndpoint(server, { legacy: legacyEra(), modern: modernEra() });
  const peer = recordingPeer();
  const first = endpoint.connect(peer);
  await exchange(
    first,
    request(1, 'initialize', {
      protocolVersion: '2025-11-25',
      capabilities: { elicitation: {} },
      clientInfo: { name: 'tester', version: '2.0.0' },
    }),
  );
  await exchange(first, { jsonrpc: '2.0', method: 'notifications/initialized' });
  await exchange(first, request(2, 'logging/setLevel', { level: 'debug' }));
  await exchange(first, request(3, 'resources/subscribe', { uri: 'test://r' }));
  return { server, endpoint, first, peer };
}

it('snapshots a legacy session as plain JSON and rebuilds it on another connection', async () => {
  const { endpoint, first } = await initializedSession();
  const snapshot = first.snapshot?.();
  expect(snapshot).toEqual({
    legacy: expect.objectContaining({
      revision: '2025-11-25',
      clientCapabilities: { elicitation: {} },
      clientInfo: { name: 'tester', version: '2.0.0' },
      clientReady: true,
      logLevel: 'debug',
      subscriptions: ['test://r'],
    }),
  });
  expect(JSON.parse(JSON.stringify(snapshot))).toEqual(snapshot);

  const rebuilt = endpoint.restore!(recordingPeer(), snapshot!);
  expect(rebuilt.stateful).toBe(true);
  expect(rebuilt.snapshot?.()).toEqual(snapshot);
  const call = await exchange(rebuilt, request(4, 'tools/call', { name: 'hello' }));
  expect(call.message).toMatchObject({ result: { content: [{ type: 'text', text: 'hi' }] } });
  const again = await exchange(
    rebuilt,
    request(5, 'initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'x', version: '1' },
    }),
  );
  expect(again.message).toMatchObject({ error: { code: -32600 } });
});

it('refreshes a session from a newer snapshot and refuses one it cannot serve', async () => {
  const { endpoint, first } = await initializedSession();
  const legacy = first.snapshot!()!.legacy as JsonObject;
  first.refresh!({ legacy: { ...legacy, logLevel: 'error', subscriptions: [] } });
  expect(first.snapshot!()!.legacy).toMatchObject({ logLevel: 'error', subscriptions: [] });
  expect(() =>
    endpoint.restore!(recordingPeer(), { legacy: { ...legacy, revision: '1999-01-01' } }),
  ).toThrow(/not served here/);
  expect(() => endpoint.restore!(recordingPeer(), { legacy: { ...legacy, logLevel: 7 } })).toThrow(
    /log level/,
  );
});

it('announces one change with the same key on every copy of a session', async () => {
  const { server, endpoint, first, peer } = await initializedSession();
  const otherPeer = recordingPeer();
  endpoint.restore!(otherPeer, first.snapshot!()!);
  server.resourceUpdated('test://r');
  await new Promise((resolve) => setTimeout(resolve, 10));
  const [notification, options] = peer.sent.at(-1)!;
  expect(notification).toMatchObject({ method: 'notifications/resources/updated' });
  expect(options?.once).toEqual(expect.any(String));
  expect(otherPeer.sent).toEqual([[notification, { once: options!.once }]]);
});

it('marks a response and a cancellation that nothing here waits for as unclaimed', async () => {
  const { first } = await initializedSession();
  const response = await exchange(first, { jsonrpc: '2.0', id: 'rondo-99', result: {} });
  expect(response.disposition).toBe('unclaimed');
  const cancel = await exchange(first, {
    jsonrpc: '2.0',
    method: 'notifications/cancelled',
    params: { requestId: 42 },
  });
  expect(cancel.disposition).toBe('unclaimed');
  const initialized = await exchange(first, {
    jsonrpc: '2.0',
    method: 'notifications/roots/list_changed',
  });
  expect(initialized.disposition).toBe('handled');
});
