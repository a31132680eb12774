import { describe, expect, it } from 'vitest';
import type { EventStore } from '@rondo/core';
import type { JsonRpcMessage } from '@rondo/protocol';
import { withOpened, type OpenedSeam } from './seamContract.js';

/** The bounds every event store takes (the memory store has more: per session, in total). */
export interface EventStoreBounds {
  maxEventsPerStream?: number;
  maxEventBytesPerStream?: number;
}

const note = (n: number): JsonRpcMessage => ({
  jsonrpc: '2.0',
  method: 'notifications/message',
  params: { n },
});

const padded = (n: number): JsonRpcMessage => ({
  jsonrpc: '2.0',
  method: 'notifications/message',
  params: { n, pad: 'x'.repeat(250) },
});

/**
 * The ids of `ids` the store still knows, which must be the newest ones: each replays every later
 * event of the stream, so a client resuming from it misses nothing.
 */
async function expectNoGap(
  store: EventStore,
  ids: readonly string[],
  message: (n: number) => JsonRpcMessage,
): Promise<number[]> {
  const known: number[] = [];
  for (const [index, id] of ids.entries()) {
    const replayed = await store.replayAfter(id);
    if (replayed === undefined) continue;
    known.push(index);
    const later = ids.slice(index + 1).map((_id, offset) => message(index + 1 + offset));
    expect(replayed.events.map((event) => event.message)).toEqual(later);
  }
  expect(known).toEqual(ids.map((_id, index) => index).slice(ids.length - known.length));
  return known;
}

/**
 * The rules every {@link EventStore} keeps, run against one implementation: `open(count, bounds)`
 * gives the store as `count` processes of one endpoint see it, fresh and empty, bounded per stream
 * as asked. Stream ids are `<session>.<stream>`, as the HTTP transport names them. What differs
 * stays beside each store: the memory store ignores `once` keys (one process announces a change
 * once) and bounds sessions and the total too; Redis expires streams and can `follow` one.
 */
export function describeEventStoreContract(
  name: string,
  open: (count: number, bounds?: EventStoreBounds) => Promise<OpenedSeam<EventStore>>,
): void {
  describe(`the event store contract: ${name}`, () => {
    it(
      'replays in order, in any process, the events after an event id, past a priming event',
      withOpened(open, 2, async ([one, two]) => {
        const priming = await one!.append('sess.0', undefined);
        const ids: string[] = [];
        for (let n = 0; n < 5; n += 1) ids.push((await one!.append('sess.0', note(n)))!);
        expect(new Set([priming, ...ids]).size).toBe(6);
        const replayed = await two!.replayAfter(priming!);
        expect(replayed?.streamId).toBe('sess.0');
        expect(replayed?.events).toEqual(ids.map((id, n) => ({ id, message: note(n) })));
        expect((await two!.replayAfter(ids[2]!))?.events.map((event) => event.id)).toEqual(
          ids.slice(3),
        );
        expect((await two!.replayAfter(ids[4]!))?.events).toEqual([]);
      }),
    );

    it(
      'keeps the streams of one session apart',
      withOpened(open, 1, async ([store]) => {
        const first = (await store!.append('sess.1', note(1)))!;
        const other = (await store!.append('sess.2', note(2)))!;
        await store!.append('sess.1', note(3));
        expect((await store!.replayAfter(first))?.events.map((event) => event.message)).toEqual([
          note(3),
        ]);
        expect(await store!.replayAfter(other)).toEqual({ streamId: 'sess.2', events: [] });
      }),
    );

    it(
      'knows no event id it never issued, nor one of a forgotten stream',
      withOpened(open, 1, async ([store]) => {
        const id = (await store!.append('s.0', note(1)))!;
        const kept = (await store!.append('t.0', note(1)))!;
        for (const unknown of ['nonsense', 'other.0:1-0', 'other.0:0', `${id}x`, '']) {
          expect(await store!.replayAfter(unknown)).toBeUndefined();
        }
        await store!.forget('s.0');
        expect(await store!.replayAfter(id)).toBeUndefined();
        expect(await store!.replayAfter(kept)).toBeDefined();
        // Forgetting what is not there is no error.
        await store!.forget('never.0');
      }),
    );

    it(
      'keeps maxEventsPerStream events per stream: an id whose next event was trimmed away is unknown',
      withOpened(
        open,
        1,
        async ([store]) => {
          const ids: string[] = [];
          for (let n = 0; n < 40; n += 1) ids.push((await store!.append('s.0', note(n)))!);
          expect(await store!.replayAfter(ids[0]!)).toBeUndefined();
          expect(await store!.replayAfter(ids[28]!)).toBeUndefined();
          await expectNoGap(store!, ids, (n) => note(n));
          expect((await store!.replayAfter(ids[30]!))?.events).toHaveLength(9);
        },
        { maxEventsPerStream: 10 },
      ),
    );

    // Issue 31, point 4: a stream's stored events are bounded in bytes too, in every store.
    it(
      'keeps a stream within maxEventBytesPerStream, the oldest dropped and then unknown',
      withOpened(
        open,
        2,
        async ([one, two]) => {
          const size = JSON.stringify(padded(0)).length;
          const ids: string[] = [];
          for (let n = 0; n < 30; n += 1) ids.push((await one!.append('s.0', padded(n)))!);
          const known = await expectNoGap(two!, ids, (n) => padded(n));
          // The newest events, as many as the budget holds (and the id of the last one dropped
          // may still be known: resuming after it misses nothing).
          const held = Math.floor(2_000 / size);
          expect(known.length === held || known.length === held + 1).toBe(true);
        },
        { maxEventBytesPerStream: 2_000 },
      ),
    );

    it(
      'gives an event larger than maxEventBytesPerStream an id, and forgets what it pushed out',
      withOpened(
        open,
        1,
        async ([store]) => {
          const before = (await store!.append('s.0', note(1)))!;
          const big: JsonRpcMessage = {
            jsonrpc: '2.0',
            method: 'notifications/message',
            params: { text: 'y'.repeat(5_000) },
          };
          const bigId = await store!.append('s.0', big);
          // An id is given (the event is sent live) whether or not the store keeps it.
          expect(bigId).toEqual(expect.any(String));
          // The earlier event is gone: a client resuming from it learns so (400 over HTTP).
          expect(await store!.replayAfter(before)).toBeUndefined();
          expect((await store!.replayAfter(bigId!))?.events).toEqual([]);
          const after = (await store!.append('s.0', note(2)))!;
          expect((await store!.replayAfter(after))?.events).toEqual([]);
        },
        { maxEventBytesPerStream: 2_000 },
      ),
    );
  });
}
