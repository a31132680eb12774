import { describe, expect, it } from 'vitest';
import { closeAll, openStates, redisCommand, useRedisServer } from './support/harness.js';

// Issue 28: the stores behind @rondo/policies on Redis, shared by every process: a limit counts
// every process's calls, each hit one round trip; a cached answer is seen by every process and a
// group dropped by one is gone for all.

describe('Redis policy stores', () => {
  const redis = useRedisServer();

  it.each(['token-bucket', 'sliding-window'] as const)(
    '%s: N calls from three processes at once admit N in total, one command each',
    async (algorithm) => {
      const states = await openStates(redis().url, 3);
      const rule = { algorithm, limit: 10, windowMs: 60_000 };
      // A process's first use of a script loads it (EVALSHA, then EVAL): one more round trip once.
      for (const state of states) await state.rateLimits.hit('warm-up', rule);
      const before = states.map((state) => state.stats().commands);
      const verdicts = await Promise.all(
        Array.from({ length: 30 }, (_, index) => states[index % 3]!.rateLimits.hit('ada', rule)),
      );
      expect(verdicts.filter((verdict) => verdict.allowed)).toHaveLength(10);
      const refused = verdicts.filter((verdict) => !verdict.allowed);
      expect(Math.min(...refused.map((verdict) => verdict.retryAfterMs))).toBeGreaterThan(0);
      const sent = states.map((state, index) => state.stats().commands - before[index]!);
      expect(sent).toEqual([10, 10, 10]);
      // Another key has its own counter; counters expire on their own.
      expect((await states[0]!.rateLimits.hit('bob', rule)).allowed).toBe(true);
      const keys = (await redisCommand(redis().url, [
        'KEYS',
        `${states[0]!.prefix}rate:*`,
      ])) as string[];
      const ttl = (await redisCommand(redis().url, ['PTTL', keys[0]!])) as number;
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(120_000);
      await closeAll(states);
    },
  );

  it('caches an answer for every process; a group dropped by one is gone for all', async () => {
    const [first, second] = await openStates(redis().url, 2);
    await first!.responses.set('resource:doc://a', 'read|ada', '{"v":1}', 60_000);
    await first!.responses.set('resource:doc://a', 'read|bob', '{"v":1}', 60_000);
    await first!.responses.set('tools', 'call|x', '{"t":1}', 60_000);
    expect(await second!.responses.get('resource:doc://a', 'read|ada')).toBe('{"v":1}');
    await second!.responses.drop('resource:doc://a');
    expect(await first!.responses.get('resource:doc://a', 'read|bob')).toBeUndefined();
    expect(await first!.responses.get('tools', 'call|x')).toBe('{"t":1}');
    await first!.responses.set('tools', 'short', 'x', 30);
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(await second!.responses.get('tools', 'short')).toBeUndefined();
    await closeAll([first!, second!]);
  });
});
