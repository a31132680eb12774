import { afterEach, describe, expect, it } from 'vitest';
import { contents, textContent } from '@rondo/protocol';
import { ModernClient, type WireJson } from './support/modernClient.js';
import { buildTestServer } from './support/testServer.js';
import type { RondoServer } from '@rondo/core';

const clients: ModernClient[] = [];
function setup(): { c: ModernClient; server: RondoServer } {
  const server = buildTestServer();
  const c = new ModernClient(server);
  clients.push(c);
  return { c, server };
}
afterEach(() => {
  for (const used of clients.splice(0)) used.expectValidWire();
});

const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('subscriptions/listen', () => {
  it('acknowledges first with the honoured filter, tagged with the listen id', async () => {
    const { c } = setup();
    const record = c.open(
      'subscriptions/listen',
      { notifications: { toolsListChanged: true, promptsListChanged: false } },
      { id: 'listen:0' },
    );
    await settle();
    expect(record.sent[0]).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/subscriptions/acknowledged',
      params: {
        _meta: { [SUBSCRIPTION_ID]: 'listen:0' },
        notifications: { toolsListChanged: true },
      },
    });
    expect(record.final).toBeUndefined();
    expect(c.memory.connection.inFlight).toBe(0);
    record.abort();
    expect(await record.ended).toBeUndefined();
  });

  it('delivers only the requested kinds, each tagged with the subscription id', async () => {
    const { c, server } = setup();
    const tools = c.open('subscriptions/listen', { notifications: { toolsListChanged: true } });
    const prompts = c.open('subscriptions/listen', { notifications: { promptsListChanged: true } });
    const resources = c.open('subscriptions/listen', {
      notifications: { resourceSubscriptions: ['test://static'], resourcesListChanged: true },
    });
    await settle();
    server.tool('added_later', { description: 'Added while listening.' }, () => 'later');
    server.resourceUpdated('test://static');
    server.resourceUpdated('test://not-subscribed');
    server.resource('test://added', { name: 'added' }, (uri) =>
      contents([textContent(uri, 'text/plain', 'added')]),
    );
    await settle();
    expect(tools.sent.map((m: WireJson) => [m.method, m.params._meta[SUBSCRIPTION_ID]])).toEqual([
      ['notifications/subscriptions/acknowledged', tools.id],
      ['notifications/tools/list_changed', tools.id],
    ]);
    expect(prompts.sent.map((m: WireJson) => m.method)).toEqual([
      'notifications/subscriptions/acknowledged',
    ]);
    expect(resources.sent.map((m: WireJson) => [m.method, m.params.uri])).toEqual([
      ['notifications/subscriptions/acknowledged', undefined],
      ['notifications/resources/updated', 'test://static'],
      ['notifications/resources/list_changed', undefined],
    ]);
    expect(
      (await c.result('tools/list')).tools.some((tool: WireJson) => tool.name === 'added_later'),
    ).toBe(true);
    for (const record of [tools, prompts, resources]) record.abort();
  });

  it('ends silently on notifications/cancelled and stops delivering', async () => {
    const { c, server } = setup();
    const record = c.open('subscriptions/listen', { notifications: { toolsListChanged: true } });
    await settle();
    c.notify('notifications/cancelled', { requestId: record.id });
    expect(await record.ended).toBeUndefined();
    server.tool('after_cancel', { description: 'Too late.' }, () => 'late');
    await settle();
    expect(record.sent).toHaveLength(1);
  });

  it('ends gracefully with a result carrying the subscription id when the session closes', async () => {
    const { c } = setup();
    const record = c.open(
      'subscriptions/listen',
      { notifications: { toolsListChanged: true } },
      { id: 7 },
    );
    await settle();
    c.memory.connection.close();
    const final = (await record.ended) as WireJson;
    expect(final.id).toBe(7);
    expect(final.result).toMatchObject({ resultType: 'complete', _meta: { [SUBSCRIPTION_ID]: 7 } });
    expect(final.result._meta['io.modelcontextprotocol/serverInfo'].name).toBe('adapter-2026-test');
  });

  it('rejects a missing or malformed filter with -32602', async () => {
    const { c } = setup();
    expect((await c.error('subscriptions/listen', {})).code).toBe(-32602);
    expect(
      (await c.error('subscriptions/listen', { notifications: { toolsListChanged: 'yes' } })).code,
    ).toBe(-32602);
    expect(
      (await c.error('subscriptions/listen', { notifications: { resourceSubscriptions: [1] } }))
        .code,
    ).toBe(-32602);
  });
});
