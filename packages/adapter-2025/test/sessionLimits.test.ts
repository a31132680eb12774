import { afterEach, describe, expect, it } from 'vitest';
import { createServer } from '@rondo/core';
import { contents, text, textContent } from '@rondo/protocol';
import { LegacyTestClient, checkAndCloseClients } from './support/legacyClient.js';

// Issue 18: what one legacy session can make the server hold is bounded: its resource
// subscriptions (maxSubscriptions) and its server-to-client requests waiting for an answer
// (maxPendingClientRequests).
afterEach(checkAndCloseClients);

const nameSchema = { type: 'object', properties: { name: { type: 'string' } } };

function limitedServer() {
  return createServer({ name: 'limits', version: '1.0.0', log: () => {} })
    .resourceTemplate('test://item/{n}', { name: 'item' }, (uri) =>
      contents([textContent(uri, 'text/plain', uri)]),
    )
    .tool('ask', { description: 'elicits once' }, async (_args, ctx) => {
      const answer = await ctx.elicit('Name?', nameSchema);
      return text(answer.kind);
    });
}

describe('legacy session limits', () => {
  it('refuses a subscription past maxSubscriptions with -32602 naming the limit', async () => {
    const client = await LegacyTestClient.open(limitedServer(), { era: { maxSubscriptions: 2 } });
    expect(await client.call('resources/subscribe', { uri: 'test://item/1' })).toEqual({});
    expect(await client.call('resources/subscribe', { uri: 'test://item/2' })).toEqual({});
    // The same URI again is no new subscription.
    expect(await client.call('resources/subscribe', { uri: 'test://item/2' })).toEqual({});
    const refused = await client.request('resources/subscribe', { uri: 'test://item/3' });
    expect(refused).toMatchObject({
      error: {
        code: -32602,
        message: expect.stringContaining('limit maxSubscriptions'),
        data: { limit: 'maxSubscriptions', maxSubscriptions: 2 },
      },
    });
    await client.call('resources/unsubscribe', { uri: 'test://item/1' });
    expect(await client.call('resources/subscribe', { uri: 'test://item/3' })).toEqual({});
  });

  it('fails an elicitation past maxPendingClientRequests before sending it', async () => {
    const client = await LegacyTestClient.open(limitedServer(), {
      capabilities: { elicitation: {} },
      era: { maxPendingClientRequests: 1 },
    });
    const first = client.send('tools/call', { name: 'ask' });
    const request = await client.serverRequest(first, 'elicitation/create');
    const second = await client.request('tools/call', { name: 'ask' });
    expect(JSON.stringify(second)).toContain('limit maxPendingClientRequests');
    client.answer(request, { action: 'accept', content: { name: 'A' } });
    expect(await first.ended).toMatchObject({ result: { content: [{ text: 'accept' }] } });
    // Once answered, the slot is free again.
    const third = client.send('tools/call', { name: 'ask' });
    client.answer(await client.serverRequest(third, 'elicitation/create'), { action: 'decline' });
    expect(await third.ended).toMatchObject({ result: { content: [{ text: 'decline' }] } });
  });
});
