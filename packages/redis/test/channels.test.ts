import { describe, expect, it, vi } from 'vitest';
import type { PublishedChange } from '@rondo/core';
import type { JsonRpcMessage } from '@rondo/protocol';
import { closeAll, openStates, redisCommand, sleep, useRedisServer } from './support/harness.js';

describe('change notifications and relayed messages over pub/sub', () => {
  const redis = useRedisServer();

  it('delivers a published change once to every process, the publisher included', async () => {
    const states = await openStates(redis().url, 3);
    const heard = states.map(() => [] as PublishedChange[]);
    states.forEach((state, index) =>
      state.changes.subscribe((change) => heard[index]!.push(change)),
    );
    await states[1]!.changes.publish({ kind: 'resource', uri: 'file:///a.txt' });
    await states[2]!.changes.publish({ kind: 'tools' });
    await vi.waitFor(() => expect(heard.map((list) => list.length)).toEqual([2, 2, 2]));
    await sleep(50);
    expect(heard.map((list) => list.length)).toEqual([2, 2, 2]);
    expect(heard[0]!.map((published) => published.change)).toEqual([
      { kind: 'resource', uri: 'file:///a.txt' },
      { kind: 'tools' },
    ]);
    // Every process sees the same id for one change, and two changes have two ids.
    expect(new Set(heard.map((list) => list[0]!.id)).size).toBe(1);
    expect(heard[0]![0]!.id).not.toBe(heard[0]![1]!.id);
    await closeAll(states);
  });

  it('stops a listener that unsubscribed, and skips what is not a change', async () => {
    const [state] = await openStates(redis().url, 1);
    const heard: PublishedChange[] = [];
    const stop = state!.changes.subscribe((change) => heard.push(change));
    const channel = `${state!.prefix}changes`;
    await redisCommand(redis().url, ['PUBLISH', channel, '{"id":"x","change":{"kind":"nope"}}']);
    await redisCommand(redis().url, ['PUBLISH', channel, 'not json']);
    await state!.changes.publish({ kind: 'prompts' });
    await vi.waitFor(() => expect(heard).toHaveLength(1));
    expect(state!.reported.map((error) => error.message)).toEqual([
      expect.stringContaining('malformed change'),
      expect.stringContaining('malformed change'),
    ]);
    stop();
    await state!.changes.publish({ kind: 'prompts' });
    await sleep(50);
    expect(heard).toHaveLength(1);
    await closeAll([state!]);
  });

  it('relays a session message to the other processes only', async () => {
    const states = await openStates(redis().url, 3);
    const heard = states.map(() => [] as [string, JsonRpcMessage][]);
    states.forEach((state, index) =>
      state.relay.receive((sessionId, message) => heard[index]!.push([sessionId, message])),
    );
    const answer: JsonRpcMessage = { jsonrpc: '2.0', id: 7, result: { action: 'accept' } };
    await states[0]!.relay.forward('session-1', answer);
    await vi.waitFor(() => expect(heard.map((list) => list.length)).toEqual([0, 1, 1]));
    expect(heard[1]).toEqual([['session-1', answer]]);
    await sleep(50);
    expect(heard[0]).toEqual([]);
    await closeAll(states);
  });

  it('comes back subscribed after a Redis restart', async () => {
    const [one, two] = await openStates(redis().url, 2);
    const heard: PublishedChange[] = [];
    two!.changes.subscribe((change) => heard.push(change));
    await redis().restart();
    await vi.waitFor(
      async () => {
        await one!.changes.publish({ kind: 'resources' }).catch(() => {});
        expect(heard.length).toBeGreaterThan(0);
      },
      { timeout: 5_000, interval: 100 },
    );
    await closeAll([one!, two!]);
  });
});
