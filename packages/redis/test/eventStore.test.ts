import { describe, expect, it } from 'vitest';
import type { JsonRpcMessage } from '@rondo/protocol';
import { closeAll, openStates, sleep, useRedisServer } from './support/harness.js';

const note = (n: number): JsonRpcMessage => ({
  jsonrpc: '2.0',
  method: 'notifications/message',
  params: { n },
});

describe('SSE event logs in Redis Streams', () => {
  const redis = useRedisServer();

  it('replays in order, on another process, the events after a Last-Event-ID', async () => {
    const [one, two] = await openStates(redis().url, 2);
    const priming = await one!.events.append('sess.get', undefined);
    const ids: string[] = [];
    for (let n = 0; n < 5; n += 1) ids.push((await one!.events.append('sess.get', note(n)))!);
    expect(priming).toMatch(/^sess\.get:\d+-\d+$/);
    const replayed = await two!.events.replayAfter(priming!);
    expect(replayed?.streamId).toBe('sess.get');
    expect(replayed?.events).toEqual(ids.map((id, n) => ({ id, message: note(n) })));
    expect((await two!.events.replayAfter(ids[2]!))?.events.map((event) => event.id)).toEqual(
      ids.slice(3),
    );
    expect((await two!.events.replayAfter(ids[4]!))?.events).toEqual([]);
    await closeAll([one!, two!]);
  });

  it('knows no event id it never issued, nor one of a forgotten stream', async () => {
    const [state] = await openStates(redis().url, 1);
    const id = (await state!.events.append('s.get', note(1)))!;
    for (const unknown of ['nonsense', 's.get:1-0', 'other.get:1-0', `${id}x`, '']) {
      expect(await state!.events.replayAfter(unknown)).toBeUndefined();
    }
    await state!.events.forget('s.get');
    expect(await state!.events.replayAfter(id)).toBeUndefined();
    await closeAll([state!]);
  });

  it('keeps maxEventsPerStream events: an id trimmed away is unknown', async () => {
    const [state] = await openStates(redis().url, 1, { maxEventsPerStream: 10 });
    const first = (await state!.events.append('s.get', note(0)))!;
    for (let n = 1; n < 400; n += 1) await state!.events.append('s.get', note(n));
    expect(await state!.events.replayAfter(first)).toBeUndefined();
    await closeAll([state!]);
  });

  // Issue 31, point 4: a stream's stored events are bounded in bytes too, as in the memory store.
  it('keeps a stream within maxEventBytesPerStream, the oldest dropped and then unknown', async () => {
    const [one, two] = await openStates(redis().url, 2, { maxEventBytesPerStream: 2_000 });
    const padded = (n: number): JsonRpcMessage => ({
      jsonrpc: '2.0',
      method: 'notifications/message',
      params: { n, pad: 'x'.repeat(250) },
    });
    const size = JSON.stringify(padded(10)).length;
    const ids: string[] = [];
    for (let n = 10; n < 40; n += 1) ids.push((await one!.events.append('s.get', padded(n)))!);
    const kept: number[] = [];
    for (const [index, id] of ids.entries())
      if ((await two!.events.replayAfter(id)) !== undefined) kept.push(index);
    // The newest events, as many as the budget holds, and no gap among them.
    expect(kept.length).toBe(Math.floor(2_000 / size));
    expect(kept).toEqual(ids.map((_id, index) => index).slice(-kept.length));
    const replayed = await two!.events.replayAfter(ids[kept[0]!]!);
    expect(replayed?.events.map((event) => event.message)).toEqual(
      kept.slice(1).map((index) => padded(10 + index)),
    );
    await closeAll([one!, two!]);
  });

  it('keeps an event larger than the byte budget until the next one, and forgets what it pushed out', async () => {
    const [one, two] = await openStates(redis().url, 2, { maxEventBytesPerStream: 2_000 });
    const before = (await one!.events.append('s.get', note(1)))!;
    const big: JsonRpcMessage = {
      jsonrpc: '2.0',
      method: 'notifications/message',
      params: { text: 'y'.repeat(5_000) },
    };
    const bigId = (await one!.events.append('s.get', big))!;
    expect(bigId).toBeDefined();
    // The earlier event is gone: a client resuming from it learns so (400 over HTTP).
    expect(await two!.events.replayAfter(before)).toBeUndefined();
    expect((await two!.events.replayAfter(bigId))?.events).toEqual([]);
    const after = (await one!.events.append('s.get', note(2)))!;
    expect(await two!.events.replayAfter(bigId)).toBeUndefined();
    expect((await two!.events.replayAfter(after))?.events).toEqual([]);
    await closeAll([one!, two!]);
  });

  it('expires a stream after its TTL since the last append', async () => {
    const [state] = await openStates(redis().url, 1, { streamTtlMs: 300 });
    const id = (await state!.events.append('s.get', note(0)))!;
    await state!.events.append('s.get', note(1));
    expect(await state!.events.replayAfter(id)).toBeDefined();
    await sleep(450);
    expect(await state!.events.replayAfter(id)).toBeUndefined();
    await closeAll([state!]);
  });

  it('stores an event with a once-key once, whichever process appends it, in one round trip', async () => {
    const [one, two] = await openStates(redis().url, 2);
    const priming = (await one!.events.append('s.get', undefined))!;
    const before = one!.stats().commands;
    const outcomes = await Promise.all([
      one!.events.append('s.get', note(1), { once: 'tools-changed-1' }),
      two!.events.append('s.get', note(1), { once: 'tools-changed-1' }),
      one!.events.append('s.get', note(1), { once: 'tools-changed-1' }),
    ]);
    expect(outcomes.filter((outcome) => outcome !== undefined)).toHaveLength(1);
    expect(one!.stats().commands - before).toBe(2);
    // The same key on another stream is another event.
    expect(await two!.events.append('t.get', note(1), { once: 'tools-changed-1' })).toBeDefined();
    expect((await two!.events.replayAfter(priming))?.events).toHaveLength(1);
    await closeAll([one!, two!]);
  });
});
