import { afterEach, describe, expect, it } from 'vitest';
import { createServer } from '@rondo/server';
import { z } from 'zod';
import {
  DEFAULT_EVENTS_LIMITS,
  DEFAULT_REPLAY,
  MAX_POLL_EVENTS,
  events as eventsExtension,
} from '../src/index.js';
import { eventsServer } from './fixture.js';
import { rpc, servedHttp } from './support.js';

// The bounds of docs/limits.md ("Events"), each hit: events a poll answers (pollEvents, and the cap
// on maxEvents), the replay buffer's count, bytes and age, and a cursor's life (cursors.ttlMs).
// The per-client stream cap (maxStreamsPerClient) and heartbeatMs are hit in streamWire.test.ts.

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function started(options: Parameters<typeof eventsServer>[0] = {}) {
  const built = eventsServer(options);
  const http = await servedHttp(built.server);
  closers.push(http.close);
  return { ...built, url: http.url };
}

async function emitMany(
  events: Awaited<ReturnType<typeof started>>['events'],
  type: 'channel_message',
  count: number,
): Promise<void> {
  for (let n = 0; n < count; n += 1) await events.emit(type, { channel: 'c', text: String(n) });
}

describe('the Events bounds', () => {
  it('answers pollEvents occurrences without maxEvents, and at most MAX_POLL_EVENTS whatever is asked', async () => {
    expect(DEFAULT_EVENTS_LIMITS.pollEvents).toBe(100);
    expect(MAX_POLL_EVENTS).toBe(1000);
    const server = createServer({ name: 'bulk', version: '1.0.0' });
    const events = eventsExtension({ pollEvents: 10 }).event('bulk', {
      description: 'Many occurrences',
      payload: z.object({ n: z.number() }),
      replay: { count: 2000 },
    });
    server.use(events);
    const http = await servedHttp(server);
    closers.push(http.close);
    const url = http.url;
    const start = await rpc(url, 'events/poll', { name: 'bulk', cursor: null });
    for (let n = 0; n < 1005; n += 1) await events.emit('bulk', { n });
    const page = await rpc(url, 'events/poll', { name: 'bulk', cursor: start.result!.cursor });
    expect(page.result!.events).toHaveLength(10);
    expect(page.result).toMatchObject({ hasMore: true, nextPollMs: 0 });
    const capped = await rpc(url, 'events/poll', {
      name: 'bulk',
      cursor: start.result!.cursor,
      maxEvents: 5000,
    });
    expect(capped.result!.events).toHaveLength(MAX_POLL_EVENTS);
    expect(capped.result!.hasMore).toBe(true);
  });

  it('keeps replay.count occurrences per type by default (1,000), forgetting the oldest', async () => {
    expect(DEFAULT_REPLAY.count).toBe(1000);
    const { url, events } = await started();
    const start = await rpc(url, 'events/poll', { name: 'channel_message', cursor: null });
    await emitMany(events, 'channel_message', 1003);
    const read = await rpc(url, 'events/poll', {
      name: 'channel_message',
      cursor: start.result!.cursor,
      maxEvents: 1000,
    });
    expect(read.result!.truncated).toBe(true);
    expect(read.result!.events[0]!.data.text).toBe('3');
  });

  it('forgets past replay.bytes and replay.ageMs', async () => {
    expect(DEFAULT_REPLAY).toMatchObject({ bytes: 1024 * 1024, ageMs: 60 * 60_000 });
    let clock = Date.now();
    const { url, events } = await started({ now: () => clock });
    const start = await rpc(url, 'events/poll', { name: 'test_event', cursor: null });
    // test_event keeps the default bytes (1 MiB): two occurrences of 600 KiB do not both fit.
    await events.emit('test_event', { message: 'a'.repeat(600 * 1024) });
    await events.emit('test_event', { message: 'b'.repeat(600 * 1024) });
    const bytes = await rpc(url, 'events/poll', {
      name: 'test_event',
      cursor: start.result!.cursor,
    });
    expect(bytes.result!.truncated).toBe(true);
    expect(bytes.result!.events.map((event) => String(event.data.message)[0])).toEqual(['b']);
    const mark = await rpc(url, 'events/poll', { name: 'channel_message', cursor: null });
    await events.emit('channel_message', { channel: 'c', text: 'old' });
    clock += DEFAULT_REPLAY.ageMs + 1;
    const aged = await rpc(url, 'events/poll', {
      name: 'channel_message',
      cursor: mark.result!.cursor,
    });
    expect(aged.result).toMatchObject({ events: [], truncated: true });
  });

  it('refuses a cursor older than cursors.ttlMs as an invalid cursor', async () => {
    let clock = Date.now();
    const { url } = await started({ cursors: { ttlMs: 60_000, now: () => clock } });
    const start = await rpc(url, 'events/poll', { name: 'test_event', cursor: null });
    clock += 30_000;
    const fresh = await rpc(url, 'events/poll', {
      name: 'test_event',
      cursor: start.result!.cursor,
    });
    expect(fresh.error).toBeUndefined();
    clock += 60_000;
    const stale = await rpc(url, 'events/poll', {
      name: 'test_event',
      cursor: start.result!.cursor,
    });
    expect(stale.error).toMatchObject({ code: -32602, data: { field: 'cursor' } });
  });
});
