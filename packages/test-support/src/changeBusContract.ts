import { describe, expect, it, vi } from 'vitest';
import type { ChangeBus, PublishedChange } from '@rondo/core';
import { pause, withOpened, type OpenedSeam } from './seamContract.js';

/**
 * The rules every {@link ChangeBus} keeps, run against one implementation: `open(count)` gives the
 * bus as `count` processes of one endpoint see it (for a bus in memory, the one bus they share).
 */
export function describeChangeBusContract(
  name: string,
  open: (count: number) => Promise<OpenedSeam<ChangeBus>>,
): void {
  describe(`the change bus contract: ${name}`, () => {
    it(
      'delivers a published change once to every process, the publisher included, in order, with one id',
      withOpened(open, 3, async (buses) => {
        const heard = buses.map(() => [] as PublishedChange[]);
        buses.forEach((bus, index) => bus.subscribe((change) => heard[index]!.push(change)));
        await buses[1]!.publish({ kind: 'resource', uri: 'file:///a.txt' });
        await buses[2]!.publish({ kind: 'tools' });
        await vi.waitFor(() => expect(heard.map((list) => list.length)).toEqual([2, 2, 2]));
        await pause(50);
        expect(heard.map((list) => list.length)).toEqual([2, 2, 2]);
        for (const list of heard) {
          expect(list.map((published) => published.change)).toEqual([
            { kind: 'resource', uri: 'file:///a.txt' },
            { kind: 'tools' },
          ]);
        }
        // Every process sees the same id for one change, and two changes have two ids.
        expect(new Set(heard.map((list) => list[0]!.id)).size).toBe(1);
        expect(heard[0]![0]!.id).not.toBe(heard[0]![1]!.id);
      }),
    );

    it(
      'stops a listener that unsubscribed and goes on for the others',
      withOpened(open, 2, async ([one, two]) => {
        const stopped: PublishedChange[] = [];
        const kept: PublishedChange[] = [];
        const stop = two!.subscribe((change) => stopped.push(change));
        two!.subscribe((change) => kept.push(change));
        await one!.publish({ kind: 'prompts' });
        await vi.waitFor(() => expect(stopped).toHaveLength(1));
        stop();
        await one!.publish({ kind: 'prompts' });
        await vi.waitFor(() => expect(kept).toHaveLength(2));
        await pause(50);
        expect(stopped).toHaveLength(1);
      }),
    );
  });
}
