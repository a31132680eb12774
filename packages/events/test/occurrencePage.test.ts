import { describe, expect, it } from 'vitest';
import { OccurrencePage, type LoggedOccurrence } from '../src/index.js';

const occurrence = (seq: number, at: number, room = 'a'): LoggedOccurrence => ({
  eventId: `e${seq}`,
  seq,
  at,
  data: { seq },
  match: { room },
});
const run = [1, 2, 3, 4, 5].map((seq) => occurrence(seq, seq * 10, seq % 2 === 0 ? 'b' : 'a'));
const seqs = (page: OccurrencePage) => page.occurrences.map((taken) => taken.seq);

describe('OccurrencePage', () => {
  it('takes what the reader accepts, moving its position past what it passes over', () => {
    const page = new OccurrencePage({ limit: 10, accept: (taken) => taken.match?.room === 'a' }, 0);
    expect(page.take(run)).toBe(true);
    expect(seqs(page)).toEqual([1, 3, 5]);
    expect(page).toMatchObject({ position: 5, hasMore: false });
  });

  it('stops at its limit before the next wanted occurrence, which is left for the next read', () => {
    const page = new OccurrencePage({ limit: 2, accept: () => true }, 0);
    expect(page.take(run)).toBe(false);
    expect(seqs(page)).toEqual([1, 2]);
    expect(page).toMatchObject({ position: 2, hasMore: true });
  });

  it('passes over occurrences older than `since`, and takes runs one after another', () => {
    const page = new OccurrencePage({ limit: 10, since: 30, accept: () => true }, 0);
    expect(page.take(run.slice(0, 3))).toBe(true);
    expect(page.take(run.slice(3))).toBe(true);
    expect(seqs(page)).toEqual([3, 4, 5]);
    expect(page.position).toBe(5);
  });
});
