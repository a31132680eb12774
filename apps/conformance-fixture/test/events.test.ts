import { afterEach, describe, expect, it } from 'vitest';
import { Client, httpTransport } from '@rondo/client';
import { serve } from '@rondo/server';
import { createEverythingServer } from '@rondo/conformance-fixture';

// Issue 42 (for outside checkers): the fixture offers the event type `test_event` (arguments {},
// payload { message: string }, poll and push, a replay of at least 100) raised by `emit_test_event`.

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function connected(): Promise<Client> {
  const running = await serve(createEverythingServer(), {
    transport: 'http',
    port: 0,
    quiet: true,
  });
  cleanups.push(() => running.close());
  const client = new Client({ transport: httpTransport({ url: running.url }), era: '2026-07-28' });
  await client.connect();
  cleanups.push(() => client.close());
  return client;
}

describe('the fixture’s test_event', () => {
  it('is listed with arguments {}, payload { message: string }, poll, push and webhook', async () => {
    const client = await connected();
    const [type] = await client.serverEvents.listAll();
    expect(type).toMatchObject({
      name: 'test_event',
      delivery: ['poll', 'push', 'webhook'],
      inputSchema: { type: 'object', properties: {} },
      payloadSchema: {
        type: 'object',
        properties: { message: { type: 'string' } },
        required: ['message'],
      },
    });
  });

  it('is raised by emit_test_event, polled, streamed, and replays 150 occurrences', async () => {
    const client = await connected();
    const start = await client.serverEvents.poll({ name: 'test_event', cursor: null });
    const stream = client.serverEvents.stream({ name: 'test_event', cursor: start.cursor });
    const called = await client.callTool('emit_test_event', { message: 'hello' });
    const eventId = (called.content[0] as { text: string }).text;
    const streamed = await stream[Symbol.asyncIterator]().next();
    expect(streamed.value).toMatchObject({
      eventId,
      name: 'test_event',
      data: { message: 'hello' },
    });
    await stream.close();
    for (let n = 1; n < 150; n += 1) await client.callTool('emit_test_event', { message: `m${n}` });
    const replayed = await client.serverEvents.poll({
      name: 'test_event',
      cursor: start.cursor,
      maxEvents: 1000,
    });
    expect(replayed.truncated).toBe(false);
    expect(replayed.events).toHaveLength(150);
    expect(replayed.events[0]).toMatchObject({ eventId, data: { message: 'hello' } });
  });
});
