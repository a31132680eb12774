import { afterEach, describe, expect, it } from 'vitest';
import { eventsServer } from './fixture.js';
import { notification, openStream, rpc, servedHttp, type WireMessage } from './support.js';

// Issue 42, done-when 1 (push): events/stream over Streamable HTTP as an SSE response, every
// notification of the spec's shape and tagged with the request's id; replay after a cursor,
// live occurrences for matching arguments, heartbeats, cancellation, the per-client cap, and
// `terminated` when the server shuts down.

const ACTIVE = 'notifications/events/active';
const EVENT = 'notifications/events/event';
const HEARTBEAT = 'notifications/events/heartbeat';
const TERMINATED = 'notifications/events/terminated';
const OCCURRENCE_FIELDS = ['eventId', 'name', 'timestamp', 'data', 'cursor', '_meta'];

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function started(options: Parameters<typeof eventsServer>[0] = {}) {
  const built = eventsServer(options);
  const http = await servedHttp(built.server);
  let closed = false;
  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    await http.close();
  };
  closers.push(close);
  return { ...built, url: http.url, close };
}

function expectTagged(messages: readonly WireMessage[], id: number): void {
  for (const message of messages.filter((m) => m.method !== undefined))
    expect(message.params!._meta['io.modelcontextprotocol/subscriptionId']).toBe(id);
}

describe('events/stream over Streamable HTTP', () => {
  it('confirms with active, replays after the cursor, then delivers live matching occurrences in order', async () => {
    const { url, events } = await started();
    const start = await rpc(url, 'events/poll', {
      name: 'channel_message',
      arguments: { channel: 'general' },
      cursor: null,
    });
    await events.emit(
      'channel_message',
      { channel: 'general', text: 'missed' },
      { match: { channel: 'general' } },
    );
    const stream = await openStream(url, {
      name: 'channel_message',
      arguments: { channel: 'general' },
      cursor: start.result!.cursor,
    });
    expect(stream.status).toBe(200);
    const [active] = await stream.waitFor(notification(ACTIVE));
    expect(stream.messages[0]).toBe(active);
    expect(Object.keys(active!.params!).sort()).toEqual(['_meta', 'cursor', 'truncated']);
    expect(active!.params).toMatchObject({ truncated: false });
    await stream.waitFor(notification(EVENT));
    await events.emit(
      'channel_message',
      { channel: 'random', text: 'elsewhere' },
      { match: { channel: 'random' } },
    );
    await events.emit(
      'channel_message',
      { channel: 'general', text: 'live' },
      { match: { channel: 'general' } },
    );
    const delivered = await stream.waitFor(notification(EVENT), 2);
    expect(delivered.map((event) => event.params!.data!.text)).toEqual(['missed', 'live']);
    for (const event of delivered) {
      expect(Object.keys(event.params!).sort()).toEqual([...OCCURRENCE_FIELDS].sort());
      expect(event.params!.name).toBe('channel_message');
    }
    expectTagged(stream.messages, stream.id);
    // The last event's cursor resumes a poll after it.
    const resumed = await rpc(url, 'events/poll', {
      name: 'channel_message',
      arguments: { channel: 'general' },
      cursor: delivered[1]!.params!.cursor,
    });
    expect(resumed.result!.events).toEqual([]);
    expect(resumed.result!.truncated).toBe(false);
    stream.abort();
  });

  it('says truncated on active when the buffer moved past the cursor', async () => {
    const { url, events } = await started();
    const start = await rpc(url, 'events/poll', { name: 'test_event', cursor: null });
    for (let n = 1; n <= 7; n += 1) await events.emit('test_event', { message: `m${n}` });
    const stream = await openStream(url, { name: 'test_event', cursor: start.result!.cursor });
    const [active] = await stream.waitFor(notification(ACTIVE));
    expect(active!.params!.truncated).toBe(true);
    const replayed = await stream.waitFor(notification(EVENT), 5);
    expect(replayed.map((event) => event.params!.data!.message)).toEqual([
      'm3',
      'm4',
      'm5',
      'm6',
      'm7',
    ]);
    stream.abort();
  });

  it('sends heartbeats carrying a cursor that moves on past occurrences for other arguments', async () => {
    const { url, events } = await started({ heartbeatMs: 100 });
    const stream = await openStream(url, {
      name: 'channel_message',
      arguments: { channel: 'general' },
      cursor: null,
    });
    await stream.waitFor(notification(ACTIVE));
    await events.emit(
      'channel_message',
      { channel: 'random', text: 'x' },
      { match: { channel: 'random' } },
    );
    const beats = await stream.waitFor(notification(HEARTBEAT), 2);
    expect(Object.keys(beats[1]!.params!).sort()).toEqual(['_meta', 'cursor']);
    expect(stream.messages.filter(notification(EVENT))).toEqual([]);
    // The heartbeat's cursor is past the occurrence for #random: a poll from it finds nothing.
    const after = await rpc(url, 'events/poll', {
      name: 'channel_message',
      arguments: { channel: 'general' },
      cursor: beats[beats.length - 1]!.params!.cursor,
    });
    expect(after.result!.events).toEqual([]);
    expectTagged(stream.messages, stream.id);
    stream.abort();
  });

  it('refuses a stream past the per-client cap with -32013, and a cancelled stream gives its place back', async () => {
    const { url } = await started({ maxStreamsPerClient: 2 });
    const first = await openStream(url, { name: 'test_event', cursor: null });
    const second = await openStream(url, { name: 'test_event', cursor: null });
    await first.waitFor(notification(ACTIVE));
    await second.waitFor(notification(ACTIVE));
    const third = await openStream(url, { name: 'test_event', cursor: null });
    await third.ended;
    expect(third.messages[0]!.error).toMatchObject({
      code: -32013,
      data: { limit: 'maxStreamsPerClient', max: 2 },
    });
    first.abort();
    await first.ended;
    await expect
      .poll(async () => {
        const fourth = await openStream(url, { name: 'test_event', cursor: null });
        const opened = await fourth.waitFor(() => true).then((messages) => messages[0]!);
        fourth.abort();
        return opened.method ?? opened.error?.code;
      })
      .toBe(ACTIVE);
    second.abort();
  });

  it('answers the spec errors before a stream opens: unknown type, bad arguments, bad cursor', async () => {
    const { url } = await started();
    for (const [params, code] of [
      [{ name: 'nope', cursor: null }, -32011],
      [{ name: 'channel_message', arguments: { channel: 1 }, cursor: null }, -32602],
      [{ name: 'test_event', cursor: 'forged' }, -32602],
    ] as const) {
      const stream = await openStream(url, params);
      await stream.ended;
      expect(stream.messages).toHaveLength(1);
      expect(stream.messages[0]!.error!.code).toBe(code);
    }
  });

  it('ends with terminated when the server shuts down', async () => {
    const { url, close } = await started();
    const stream = await openStream(url, { name: 'test_event', cursor: null });
    await stream.waitFor(notification(ACTIVE));
    await close();
    await stream.ended;
    const terminated = stream.messages.find(notification(TERMINATED));
    expect(terminated?.params).toMatchObject({
      error: { code: -32603, data: { reason: 'shutdown' } },
    });
    // terminated is the stream's last notification; the HTTP transport ends a stateless response
    // at once on shutdown, so the request's result (the stream's last frame when the server ends
    // it otherwise) may not follow it there.
    const notifications = stream.messages.filter((message) => message.method !== undefined);
    expect(notifications[notifications.length - 1]).toBe(terminated);
    expectTagged(stream.messages, stream.id);
  });
});
