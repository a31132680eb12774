import { describe, expect, it } from 'vitest';
import type { SessionRecord, SessionStore } from '@rondo/core';
import { pause, withOpened, type OpenedSeam } from './seamContract.js';

const RECORD: SessionRecord = {
  principalId: 'alice',
  state: { protocolVersion: '2025-06-18', logLevel: 'info', subscriptions: ['file:///a'] },
};

/**
 * The rules every {@link SessionStore} keeps, run against one implementation: `open(count)` gives
 * the store as `count` processes of one endpoint see it, fresh and empty. Time passes for real
 * (TTLs of a few hundred ms), so a store that expires records on its own clock (Redis) runs the
 * same scenarios as one in memory. How many records a store holds at most is its own (the memory
 * store's `maxSessions`; Redis's memory policy), so bounds are tested beside each.
 */
export function describeSessionStoreContract(
  name: string,
  open: (count: number) => Promise<OpenedSeam<SessionStore>>,
): void {
  describe(`the session store contract: ${name}`, () => {
    it(
      'finds in any process a record another saved, with its principal (or none) and its state',
      withOpened(open, 2, async ([one, two]) => {
        await one!.save('s1', RECORD, 10_000);
        expect(await two!.load('s1', 10_000)).toEqual(RECORD);
        await one!.save('s2', { principalId: undefined, state: {} }, 10_000);
        expect(await two!.load('s2', 10_000)).toEqual({ principalId: undefined, state: {} });
        expect(await two!.load('never', 10_000)).toBeUndefined();
      }),
    );

    it(
      'replaces a record with the one saved last',
      withOpened(open, 2, async ([one, two]) => {
        await one!.save('s', RECORD, 10_000);
        const changed = { ...RECORD, state: { ...RECORD.state, logLevel: 'debug' } };
        await two!.save('s', changed, 10_000);
        expect(await one!.load('s', 10_000)).toEqual(changed);
      }),
    );

    it(
      'forgets a record after its TTL, and a load restarts the TTL',
      withOpened(open, 1, async ([store]) => {
        await store!.save('idle', RECORD, 300);
        await store!.save('busy', RECORD, 300);
        for (let step = 0; step < 4; step += 1) {
          await pause(150);
          expect(await store!.load('busy', 300)).toEqual(RECORD);
        }
        // 600 ms have passed: the idle one expired, the one loaded every 150 ms is still there.
        expect(await store!.load('idle', 300)).toBeUndefined();
      }),
    );

    it(
      'ends a deleted session for every process, leaving the others',
      withOpened(open, 2, async ([one, two]) => {
        await one!.save('gone', RECORD, 10_000);
        await one!.save('kept', RECORD, 10_000);
        await two!.delete('gone');
        expect(await one!.load('gone', 10_000)).toBeUndefined();
        expect(await two!.load('gone', 10_000)).toBeUndefined();
        expect(await one!.load('kept', 10_000)).toEqual(RECORD);
        // Deleting what is not there is no error.
        await two!.delete('never');
      }),
    );
  });
}
