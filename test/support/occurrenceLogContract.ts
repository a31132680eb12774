import { describe, expect, it } from 'vitest';
import type { LoggedOccurrence, OccurrenceLog, ReplayBounds } from '@rondo/events';
import { pause, withOpened, type OpenedSeam } from './seamContract.js';

/** Bounds roomy enough that nothing is forgotten unless a test says so. */
const ROOMY: ReplayBounds = { count: 1000, bytes: 1024 * 1024, ageMs: 60 * 60_000 };
const ALL = { limit: 100, accept: () => true };

/** The messages of a read, for comparing. */
const texts = (occurrences: readonly LoggedOccurrence[]): unknown[] =>
  occurrences.map((occurrence) => occurrence.data.text);

/**
 * The rules every {@link OccurrenceLog} (the Events extension's replay buffer and live feed) keeps,
 * run against one implementation: `open(count)` gives the log as `count` processes of one endpoint
 * see it (for a log in memory, the one log they share).
 */
export function describeOccurrenceLogContract(
  name: string,
  open: (count: number) => Promise<OpenedSeam<OccurrenceLog>>,
): void {
  describe(`the occurrence log contract: ${name}`, () => {
    it(
      'numbers each type’s occurrences from 1 in order, and reads them back after any position',
      withOpened(open, 2, async ([one, two]) => {
        const start = await one!.head('a');
        expect(start.seq).toBe(0);
        for (const text of ['x', 'y', 'z'])
          await one!.append('a', { eventId: text, at: Date.now(), data: { text } }, ROOMY);
        await one!.append('b', { eventId: 'other', at: Date.now(), data: { text: 'b' } }, ROOMY);
        expect((await two!.head('a')).seq).toBe(3);
        expect((await two!.head('b')).seq).toBe(1);
        const all = await two!.read('a', start, ALL);
        expect(texts(all.occurrences)).toEqual(['x', 'y', 'z']);
        expect(all.occurrences.map((occurrence) => occurrence.seq)).toEqual([1, 2, 3]);
        expect(all).toMatchObject({ truncated: false, hasMore: false, position: { seq: 3 } });
        const after = await two!.read('a', { epoch: start.epoch, seq: 2 }, ALL);
        expect(texts(after.occurrences)).toEqual(['z']);
        const none = await two!.read('a', all.position, ALL);
        expect(none).toMatchObject({ occurrences: [], truncated: false, position: { seq: 3 } });
      }),
    );

    it(
      'answers at most limit accepted occurrences, says hasMore, and passes over the unaccepted',
      withOpened(open, 1, async ([log]) => {
        const start = await log!.head('a');
        const rooms: [string, string][] = [
          ['1', 'r'],
          ['2', 's'],
          ['3', 'r'],
          ['4', 'r'],
          ['5', 's'],
        ];
        for (const [text, room] of rooms)
          await log!.append(
            'a',
            { eventId: text, at: Date.now(), data: { text }, match: { room } },
            ROOMY,
          );
        const accept = (occurrence: LoggedOccurrence): boolean => occurrence.match?.room === 'r';
        const page = await log!.read('a', start, { limit: 2, accept });
        expect(texts(page.occurrences)).toEqual(['1', '3']);
        expect(page.hasMore).toBe(true);
        expect(page.position.seq).toBe(3);
        const rest = await log!.read('a', page.position, { limit: 2, accept });
        expect(texts(rest.occurrences)).toEqual(['4']);
        // The last one (for another room) is passed over: the position moves past it.
        expect(rest).toMatchObject({ hasMore: false, position: { seq: 5 } });
      }),
    );

    it(
      'forgets the oldest past the count bound and says truncated to a position before them',
      withOpened(open, 2, async ([one, two]) => {
        const bounds = { ...ROOMY, count: 3 };
        const start = await one!.head('a');
        for (let n = 1; n <= 5; n += 1)
          await one!.append('a', { eventId: `e${n}`, at: Date.now(), data: { text: n } }, bounds);
        const read = await two!.read('a', start, ALL);
        expect(texts(read.occurrences)).toEqual([3, 4, 5]);
        expect(read.truncated).toBe(true);
        // A position just before the oldest kept one lost nothing.
        const kept = await two!.read('a', { epoch: start.epoch, seq: 2 }, ALL);
        expect(kept.truncated).toBe(false);
      }),
    );

    it(
      'forgets past the byte bound (an occurrence larger than it is not kept) and past the age bound',
      withOpened(open, 1, async ([log]) => {
        const start = await log!.head('a');
        const small = { ...ROOMY, bytes: 400 };
        await log!.append(
          'a',
          { eventId: 'big', at: Date.now(), data: { text: 'x'.repeat(500) } },
          small,
        );
        const afterBig = await log!.read('a', start, ALL);
        expect(afterBig.occurrences).toEqual([]);
        expect(afterBig.truncated).toBe(true);
        const young = { ...ROOMY, ageMs: 200 };
        const mark = await log!.head('b');
        await log!.append('b', { eventId: 'old', at: Date.now(), data: { text: 'old' } }, young);
        await pause(400);
        await log!.append('b', { eventId: 'new', at: Date.now(), data: { text: 'new' } }, young);
        const read = await log!.read('b', mark, ALL);
        expect(texts(read.occurrences)).toEqual(['new']);
        expect(read.truncated).toBe(true);
      }),
    );

    it(
      'passes over occurrences older than since without calling them lost',
      withOpened(open, 1, async ([log]) => {
        const start = await log!.head('a');
        const now = Date.now();
        await log!.append('a', { eventId: 'old', at: now - 10_000, data: { text: 'old' } }, ROOMY);
        await log!.append('a', { eventId: 'new', at: now, data: { text: 'new' } }, ROOMY);
        const read = await log!.read('a', start, { ...ALL, since: now - 5_000 });
        expect(texts(read.occurrences)).toEqual(['new']);
        expect(read.truncated).toBe(false);
      }),
    );

    it(
      'reads a position of another epoch (a log that lost its memory) as truncated, from the oldest kept',
      withOpened(open, 1, async ([log]) => {
        await log!.append('a', { eventId: 'one', at: Date.now(), data: { text: 'one' } }, ROOMY);
        const read = await log!.read('a', { epoch: 'another-memory', seq: 7 }, ALL);
        expect(read.truncated).toBe(true);
        expect(texts(read.occurrences)).toEqual(['one']);
      }),
    );

    it(
      'feeds each appended occurrence to every follower of its type, in order, until it stops',
      withOpened(open, 2, async ([one, two]) => {
        const heard: unknown[] = [];
        const stop = two!.follow('a', (occurrence) => heard.push(occurrence.data.text));
        const otherType: unknown[] = [];
        two!.follow('b', (occurrence) => otherType.push(occurrence.data.text));
        await one!.append('a', { eventId: '1', at: Date.now(), data: { text: 1 } }, ROOMY);
        await one!.append('a', { eventId: '2', at: Date.now(), data: { text: 2 } }, ROOMY);
        await expect.poll(() => heard).toEqual([1, 2]);
        stop();
        await one!.append('a', { eventId: '3', at: Date.now(), data: { text: 3 } }, ROOMY);
        await pause(100);
        expect(heard).toEqual([1, 2]);
        expect(otherType).toEqual([]);
      }),
    );
  });
}
