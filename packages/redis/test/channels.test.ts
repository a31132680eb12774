import { describe, expect, it, vi } from 'vitest';
import { MemoryChangeBus, MemorySessionRelay, type PublishedChange } from '@rondo/core';
import { describeChangeBusContract } from '@rondo/test-support/changeBusContract';
import { describeSessionRelayContract } from '@rondo/test-support/sessionRelayContract';
import { closeAll, openStates, redisCommand, sleep, useRedisServer } from './support/harness.js';

const redis = useRedisServer();

describeChangeBusContract('in memory', async (count) => {
  const bus = new MemoryChangeBus();
  return { processes: Array.from({ length: count }, () => bus), close: async () => {} };
});

describeChangeBusContract('in Redis', async (count) => {
  const states = await openStates(redis().url, count);
  return { processes: states.map((state) => state.changes), close: () => closeAll(states) };
});

describeSessionRelayContract('in memory', async (count) => {
  const first = new MemorySessionRelay();
  const relays = [first, ...Array.from({ length: count - 1 }, () => first.peer())];
  return {
    processes: relays,
    close: async () => relays.forEach((relay) => relay.close()),
  };
});

describeSessionRelayContract('in Redis', async (count) => {
  const states = await openStates(redis().url, count);
  return { processes: states.map((state) => state.relay), close: () => closeAll(states) };
});

describe('change notifications and relayed messages over pub/sub', () => {
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
