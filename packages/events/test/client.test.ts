import { afterEach, describe, expect, it } from 'vitest';
import { Client, httpTransport, type EventOccurrence, type EventStream } from '@rondo/client';
import type { McpError } from '@rondo/protocol';
import { serve } from '@rondo/server';
import { MemoryOccurrenceLog } from '../src/index.js';
import { eventsServer } from './fixture.js';

// Issue 42 (@rondo/client): client.serverEvents lists, polls and streams a Rondo server's event
// types over real HTTP, and a stream resumes from its cursor after the server went away.

const KEYS = { keys: [{ id: 'k1', secret: 'an events test key of at least thirty-two bytes' }] };
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function serveEvents(options: Parameters<typeof eventsServer>[0] = {}, port = 0) {
  const built = eventsServer({ cursors: KEYS, ...options });
  const running = await serve(built.server, { transport: 'http', port, quiet: true });
  let closed = false;
  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    await running.close();
  };
  cleanups.push(close);
  return { ...built, url: running.url, close };
}

async function connected(url: string, era: '2026-07-28' | '2025-11-25' = '2026-07-28') {
  const client = new Client({ transport: httpTransport({ url }), era });
  await client.connect();
  cleanups.push(() => client.close());
  return client;
}

/** Reads `count` occurrences from a stream, then ends it (leaving a `for await` closes it). */
async function take(stream: EventStream, count: number): Promise<EventOccurrence[]> {
  const taken: EventOccurrence[] = [];
  for await (const occurrence of stream) {
    taken.push(occurrence);
    if (taken.length === count) break;
  }
  return taken;
}

describe('client.serverEvents', () => {
  it('is unavailable to a legacy client, whose events/list is -32601', async () => {
    const { url } = await serveEvents();
    const client = await connected(url, '2025-11-25');
    expect(client.serverEvents.available).toBe(false);
    await expect(client.serverEvents.poll({ name: 'test_event' })).rejects.toThrow(
      /io.modelcontextprotocol\/events/,
    );
    expect(() => client.serverEvents.stream({ name: 'test_event' })).toThrow(/does not declare/);
    await expect(client.request('events/list', {})).rejects.toMatchObject({ code: -32601 });
  });

  it('lists the event types and polls from now, then resumes with the cursor', async () => {
    const { url, events } = await serveEvents();
    const client = await connected(url);
    expect(client.serverEvents.available).toBe(true);
    const types = await client.serverEvents.listAll();
    expect(types.map((type) => type.name)).toEqual(['test_event', 'channel_message', 'push_only']);
    const now = await client.serverEvents.poll({ name: 'test_event', cursor: null });
    expect(now).toMatchObject({ events: [], truncated: false, hasMore: false });
    await events.emit('test_event', { message: 'one' });
    await client.callTool('emit_test_event', { message: 'two' });
    const polled = await client.serverEvents.poll({ name: 'test_event', cursor: now.cursor });
    expect(polled.events.map((event) => event.data.message)).toEqual(['one', 'two']);
    const paged = await client.serverEvents.poll({
      name: 'test_event',
      cursor: now.cursor,
      maxEvents: 1,
    });
    expect(paged.hasMore).toBe(true);
  });

  it('rejects with the server’s McpError for an unknown type, bad arguments and a bad cursor', async () => {
    const { url } = await serveEvents();
    const client = await connected(url);
    const refusals = [
      client.serverEvents.poll({ name: 'nope' }),
      client.serverEvents.poll({ name: 'channel_message', arguments: { channel: 3 } }),
      client.serverEvents.poll({ name: 'test_event', cursor: 'forged' }),
    ];
    const codes = await Promise.all(
      refusals.map((refusal) =>
        refusal.then(
          () => 0,
          (error: McpError) => error.code,
        ),
      ),
    );
    expect(codes).toEqual([-32011, -32602, -32602]);
    const refused = client.serverEvents.stream({ name: 'nope' });
    await expect(take(refused, 1)).rejects.toMatchObject({ code: -32011 });
  });

  it('settles a stream’s opened: at active with the start cursor, with a refusal, or at a close before it', async () => {
    const { url, events } = await serveEvents();
    const client = await connected(url);
    const live = client.serverEvents.stream({ name: 'test_event' });
    await live.opened;
    expect(typeof live.cursor).toBe('string');
    // Opened means subscribed: an occurrence raised now reaches it.
    await events.emit('test_event', { message: 'after opened' });
    expect((await take(live, 1)).map((occurrence) => occurrence.data)).toEqual([
      { message: 'after opened' },
    ]);
    await expect(client.serverEvents.stream({ name: 'nope' }).opened).rejects.toMatchObject({
      code: -32011,
    });
    const closed = new AbortController();
    closed.abort();
    await expect(
      client.serverEvents.stream({ name: 'test_event' }, { signal: closed.signal }).opened,
    ).rejects.toThrow(/closed before it opened/);
  });

  it('streams replayed and live occurrences for its arguments, and close ends the iteration', async () => {
    const { url, events } = await serveEvents();
    const client = await connected(url);
    const start = await client.serverEvents.poll({
      name: 'channel_message',
      arguments: { channel: 'a' },
    });
    await events.emit(
      'channel_message',
      { channel: 'a', text: 'replayed' },
      { match: { channel: 'a' } },
    );
    const stream = client.serverEvents.stream({
      name: 'channel_message',
      arguments: { channel: 'a' },
      cursor: start.cursor,
    });
    const iterator = stream[Symbol.asyncIterator]();
    const first = await iterator.next();
    expect(first.value?.data.text).toBe('replayed');
    await events.emit(
      'channel_message',
      { channel: 'b', text: 'other' },
      { match: { channel: 'b' } },
    );
    await events.emit(
      'channel_message',
      { channel: 'a', text: 'live' },
      { match: { channel: 'a' } },
    );
    const live = await iterator.next();
    expect(live.value).toMatchObject({ name: 'channel_message', data: { text: 'live' } });
    expect(stream.cursor).toBe(live.value!.cursor);
    await stream.close();
    expect(await iterator.next()).toEqual({ done: true, value: undefined });
  });

  it('resumes from its cursor after the server went away: nothing lost, nothing repeated', async () => {
    const log = new MemoryOccurrenceLog();
    const first = await serveEvents({ log });
    const port = Number(new URL(first.url).port);
    const client = await connected(first.url);
    const stream = client.serverEvents.stream(
      { name: 'test_event' },
      { reconnectDelayMs: 200, maxReconnects: 8 },
    );
    const seen: unknown[] = [];
    const reading = (async () => {
      for await (const occurrence of stream) {
        seen.push(occurrence.data.message);
        if (seen.length === 4) break;
      }
    })();
    await expect.poll(() => stream.cursor).not.toBeNull();
    await first.events.emit('test_event', { message: 'before' });
    await expect.poll(() => seen).toEqual(['before']);
    await first.close();
    // Raised while no server listens: only a replay from the stream's cursor can bring them.
    await first.events.emit('test_event', { message: 'while away 1' });
    await first.events.emit('test_event', { message: 'while away 2' });
    // A new process on the same port, with the same log and cursor keys.
    const second = await serveEvents({ log }, port);
    await expect.poll(() => seen.length, { timeout: 30_000 }).toBe(3);
    await second.events.emit('test_event', { message: 'after' });
    await reading;
    expect(seen).toEqual(['before', 'while away 1', 'while away 2', 'after']);
    expect(stream.truncated).toBe(false);
  });
});
