import { describe, expect, it } from 'vitest';
import { describeOccurrenceLogContract } from '@rondo/test-support/occurrenceLogContract';
import { closeAll, openStates, redisCommand, useRedisServer } from './support/harness.js';

const redis = useRedisServer();
const ROOMY = { count: 1000, bytes: 1024 * 1024, ageMs: 60 * 60_000 };

describeOccurrenceLogContract('in Redis', async (count) => {
  const states = await openStates(redis().url, count);
  return { processes: states.map((state) => state.occurrences), close: () => closeAll(states) };
});

describe('the occurrence log in Redis', () => {
  it('keeps each type in a Redis Stream whose entry ids are the occurrences’ numbers', async () => {
    const [state] = await openStates(redis().url, 1);
    try {
      for (const text of ['one', 'two'])
        await state!.occurrences.append(
          'a b',
          { eventId: text, at: Date.now(), data: { text } },
          ROOMY,
        );
      const entries = await redisCommand(redis().url, [
        'XRANGE',
        `${state!.prefix}occurrences:a%20b`,
        '-',
        '+',
      ]);
      expect((entries as [string, string[]][]).map(([id]) => id)).toEqual(['1-0', '2-0']);
    } finally {
      await state!.close();
    }
  });

  it('reads a position past a flushed Redis (a new epoch) as truncated', async () => {
    const [state] = await openStates(redis().url, 1);
    try {
      await state!.occurrences.append(
        'a',
        { eventId: 'x', at: Date.now(), data: { text: 'x' } },
        ROOMY,
      );
      const before = await state!.occurrences.head('a');
      await redisCommand(redis().url, [
        'DEL',
        `${state!.prefix}occurrence-log:a`,
        `${state!.prefix}occurrences:a`,
      ]);
      await state!.occurrences.append(
        'a',
        { eventId: 'y', at: Date.now(), data: { text: 'y' } },
        ROOMY,
      );
      const read = await state!.occurrences.read('a', before, { limit: 10, accept: () => true });
      expect(read.truncated).toBe(true);
      expect(read.occurrences.map((occurrence) => occurrence.eventId)).toEqual(['y']);
      expect(read.position.epoch).not.toBe(before.epoch);
    } finally {
      await state!.close();
    }
  });
});
