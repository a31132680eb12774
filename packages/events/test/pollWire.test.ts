import { afterEach, describe, expect, it } from 'vitest';
import { eventsServer } from './fixture.js';
import { expectPollResult, rpc, servedHttp } from './support.js';

// Issue 42, done-when 1 (the TypeScript server over HTTP): events/list and events/poll on the
// 2026-07-28 wire, their shapes held to the spec's field lists (ext-events publishes no JSON schema
// for the extension, so the fields are asserted here), and the three errors the spec names.

const DESCRIPTOR_FIELDS = ['name', 'description', 'delivery', 'inputSchema', 'payloadSchema'];

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

describe('events/list', () => {
  it('lists each event type with the fields of a descriptor, on the modern wire only', async () => {
    const { url } = await started();
    const discovered = await rpc(url, 'server/discover', {});
    expect(discovered.result!.capabilities.extensions['io.modelcontextprotocol/events']).toEqual(
      {},
    );
    const listed = await rpc(url, 'events/list', {});
    const descriptors = listed.result!.events as unknown as { name: string; delivery: string[] }[];
    expect(descriptors.map((descriptor) => descriptor.name)).toEqual([
      'test_event',
      'channel_message',
      'push_only',
    ]);
    for (const descriptor of descriptors)
      expect(Object.keys(descriptor).sort()).toEqual([...DESCRIPTOR_FIELDS].sort());
    expect(descriptors[0]).toMatchObject({
      delivery: ['poll', 'push'],
      inputSchema: { type: 'object', properties: {} },
      payloadSchema: {
        type: 'object',
        properties: { message: { type: 'string' } },
        required: ['message'],
      },
    });
    expect(descriptors[2]!.delivery).toEqual(['push']);
  });
});

describe('events/poll', () => {
  it('from now: no events and a cursor that later resumes exactly after it', async () => {
    const { url, events } = await started();
    await events.emit('test_event', { message: 'before' });
    const now = await rpc(url, 'events/poll', { name: 'test_event', arguments: {}, cursor: null });
    expectPollResult(now.result);
    expect(now.result).toMatchObject({ events: [], truncated: false, hasMore: false });

    const quiet = await rpc(url, 'events/poll', { name: 'test_event', cursor: now.result!.cursor });
    expectPollResult(quiet.result);
    expect(quiet.result!.events).toEqual([]);

    const id = await events.emit('test_event', { message: 'after' });
    const resumed = await rpc(url, 'events/poll', {
      name: 'test_event',
      arguments: {},
      cursor: quiet.result!.cursor,
    });
    expectPollResult(resumed.result);
    expect(resumed.result!.events).toMatchObject([
      { eventId: id, name: 'test_event', data: { message: 'after' } },
    ]);
    expect(resumed.result!.truncated).toBe(false);
  });

  it('resumes from an occurrence cursor and pages with maxEvents and hasMore', async () => {
    const { url, events } = await started();
    const start = await rpc(url, 'events/poll', { name: 'test_event', cursor: null });
    for (const n of [1, 2, 3]) await events.emit('test_event', { message: `m${n}` });
    const page = await rpc(url, 'events/poll', {
      name: 'test_event',
      cursor: start.result!.cursor,
      maxEvents: 2,
    });
    expectPollResult(page.result);
    expect(page.result!.events.map((event) => event.data.message)).toEqual(['m1', 'm2']);
    expect(page.result!.hasMore).toBe(true);
    const rest = await rpc(url, 'events/poll', { name: 'test_event', cursor: page.result!.cursor });
    expect(rest.result!.events.map((event) => event.data.message)).toEqual(['m3']);
    expect(rest.result!.hasMore).toBe(false);
    // An occurrence's own cursor resumes right after it.
    const again = await rpc(url, 'events/poll', {
      name: 'test_event',
      cursor: page.result!.events[0]!.cursor,
    });
    expect(again.result!.events.map((event) => event.data.message)).toEqual(['m2', 'm3']);
  });

  it('replays within the buffer and says truncated once the buffer moved past the cursor', async () => {
    const { url, events } = await started();
    const start = await rpc(url, 'events/poll', { name: 'test_event', cursor: null });
    // test_event keeps 5 occurrences (replay: { count: 5 }).
    for (let n = 1; n <= 4; n += 1) await events.emit('test_event', { message: `m${n}` });
    const replayed = await rpc(url, 'events/poll', {
      name: 'test_event',
      cursor: start.result!.cursor,
    });
    expect(replayed.result!.truncated).toBe(false);
    expect(replayed.result!.events).toHaveLength(4);
    for (let n = 5; n <= 8; n += 1) await events.emit('test_event', { message: `m${n}` });
    const late = await rpc(url, 'events/poll', {
      name: 'test_event',
      cursor: start.result!.cursor,
    });
    expectPollResult(late.result);
    expect(late.result!.truncated).toBe(true);
    expect(late.result!.events.map((event) => event.data.message)).toEqual([
      'm4',
      'm5',
      'm6',
      'm7',
      'm8',
    ]);
    // The cursor answered with the gap is caught up: no gap after it.
    const after = await rpc(url, 'events/poll', {
      name: 'test_event',
      cursor: late.result!.cursor,
    });
    expect(after.result!.truncated).toBe(false);
  });

  it('honours maxAgeMs: occurrences older than it are passed over, not reported as lost', async () => {
    let clock = Date.parse('2026-12-06T10:00:00Z');
    const { url, events } = await started({ now: () => clock });
    const start = await rpc(url, 'events/poll', { name: 'test_event', cursor: null });
    await events.emit('test_event', { message: 'old' });
    clock += 60_000;
    await events.emit('test_event', { message: 'new' });
    const recent = await rpc(url, 'events/poll', {
      name: 'test_event',
      cursor: start.result!.cursor,
      maxAgeMs: 30_000,
    });
    expect(recent.result!.events.map((event) => event.data.message)).toEqual(['new']);
    expect(recent.result!.events[0]!.timestamp).toBe('2026-12-06T10:01:00.000Z');
    expect(recent.result!.truncated).toBe(false);
  });

  it('delivers an occurrence to the subscriptions whose arguments match it', async () => {
    const { url, events } = await started();
    const cursors: Record<string, string> = {};
    for (const [key, args] of Object.entries({ general: { channel: 'general' }, all: {} })) {
      const now = await rpc(url, 'events/poll', {
        name: 'channel_message',
        arguments: args,
        cursor: null,
      });
      cursors[key] = now.result!.cursor;
    }
    await events.emit(
      'channel_message',
      { channel: 'general', text: 'hi' },
      { match: { channel: 'general' } },
    );
    await events.emit(
      'channel_message',
      { channel: 'random', text: 'yo' },
      { match: { channel: 'random' } },
    );
    const general = await rpc(url, 'events/poll', {
      name: 'channel_message',
      arguments: { channel: 'general' },
      cursor: cursors.general,
    });
    expect(general.result!.events.map((event) => event.data.text)).toEqual(['hi']);
    const all = await rpc(url, 'events/poll', { name: 'channel_message', cursor: cursors.all });
    expect(all.result!.events.map((event) => event.data.text)).toEqual(['hi', 'yo']);
  });
});

describe('events/poll errors the spec names', () => {
  it('an unknown event type is -32011 NotFound with data.kind "event"', async () => {
    const { url } = await started();
    const answer = await rpc(url, 'events/poll', { name: 'no_such_event', cursor: null });
    expect(answer.error).toMatchObject({ code: -32011, data: { kind: 'event' } });
    expect(answer.error!.message).toContain('no_such_event');
  });

  it('arguments violating the inputSchema are -32602 InvalidParams', async () => {
    const { url } = await started();
    const answer = await rpc(url, 'events/poll', {
      name: 'channel_message',
      arguments: { channel: 42 },
      cursor: null,
    });
    expect(answer.error).toMatchObject({ code: -32602, data: { field: 'arguments' } });
    expect(answer.error!.message).toContain('channel');
  });

  it('a tampered cursor, or one of other arguments, is -32602 InvalidParams naming the cursor', async () => {
    const { url } = await started();
    const now = await rpc(url, 'events/poll', {
      name: 'channel_message',
      arguments: { channel: 'a' },
      cursor: null,
    });
    const cursor = now.result!.cursor;
    const tampered = `${cursor.slice(0, -2)}${cursor.endsWith('AA') ? 'BB' : 'AA'}`;
    for (const [args, sent] of [
      [{ channel: 'a' }, tampered],
      [{ channel: 'b' }, cursor],
      [{ channel: 'a' }, 'not-a-cursor'],
    ] as const) {
      const answer = await rpc(url, 'events/poll', {
        name: 'channel_message',
        arguments: args,
        cursor: sent,
      });
      expect(answer.error).toMatchObject({ code: -32602, data: { field: 'cursor' } });
    }
    // A cursor of one event type does not open for another.
    const other = await rpc(url, 'events/poll', { name: 'test_event', cursor });
    expect(other.error).toMatchObject({ code: -32602, data: { field: 'cursor' } });
  });

  it('polling a push-only event type is -32014 Unsupported', async () => {
    const { url } = await started();
    const answer = await rpc(url, 'events/poll', { name: 'push_only', cursor: null });
    expect(answer.error).toMatchObject({ code: -32014, data: { delivery: 'poll' } });
  });
});
