import { describe, expect, it } from 'vitest';
import { createMemoryEventStore } from '@rondo/core';
import { describeEventStoreContract } from '@rondo/test-support/eventStoreContract';
import type { JsonRpcMessage } from '@rondo/protocol';
import { closeAll, openStates, sleep, useRedisServer } from './support/harness.js';

const note = (n: number): JsonRpcMessage => ({
  jsonrpc: '2.0',
  method: 'notifications/message',
  params: { n },
});

const redis = useRedisServer();

describeEventStoreContract('in memory', async (count, bounds) => {
  const store = createMemoryEventStore(bounds);
  return { processes: Array.from({ length: count }, () => store), close: async () => {} };
});

describeEventStoreContract('in Redis', async (count, bounds) => {
  const states = await openStates(redis().url, count, bounds);
  return { processes: states.map((state) => state.events), close: () => closeAll(states) };
});

describe('SSE event logs in Redis Streams', () => {
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
