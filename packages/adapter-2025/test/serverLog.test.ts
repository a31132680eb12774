import { afterEach, describe, expect, it } from 'vitest';
import { createServer } from '@rondo/core';
import { LegacyTestClient, checkAndCloseClients } from './support/legacyClient.js';

afterEach(checkAndCloseClients);

const messagesOf = (client: LegacyTestClient) =>
  client.memory.peerMessages.filter((m) => 'method' in m && m.method === 'notifications/message');

describe('RondoServer.broadcastLog to legacy sessions', () => {
  it('reaches each session whose log level admits it, on the session channel, and no other', async () => {
    const server = createServer({ name: 'logs', version: '1.0.0', log: () => {} }).tool(
      'noop',
      { description: 'nothing' },
      () => 'ok',
    );
    const warned = await LegacyTestClient.open(server);
    const critical = await LegacyTestClient.open(server);
    await warned.call('logging/setLevel', { level: 'warning' });
    await critical.call('logging/setLevel', { level: 'critical' });

    server.broadcastLog('info', 'below every threshold');
    server.broadcastLog('error', { file: 'live.pl', line: 6 }, 'rondo-logtalk');
    server.broadcastLog('alert', 'loud');

    expect(messagesOf(warned)).toEqual([
      {
        jsonrpc: '2.0',
        method: 'notifications/message',
        params: { level: 'error', data: { file: 'live.pl', line: 6 }, logger: 'rondo-logtalk' },
      },
      { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'alert', data: 'loud' } },
    ]);
    expect(messagesOf(critical)).toEqual([
      { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'alert', data: 'loud' } },
    ]);
  });
});
