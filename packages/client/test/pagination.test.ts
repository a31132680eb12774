import { ProtocolViolationError, walkPages } from '@rondo/client';
import { describe, expect, it } from 'vitest';

describe('walkPages', () => {
  it('collects every page, following cursors until there is none', async () => {
    const pages: Record<string, { items: number[]; nextCursor?: string }> = {
      start: { items: [1, 2], nextCursor: 'b' },
      b: { items: [3], nextCursor: 'c' },
      c: { items: [4] },
    };
    const cursors: (string | undefined)[] = [];
    const items = await walkPages((cursor) => {
      cursors.push(cursor);
      return Promise.resolve(pages[cursor ?? 'start']!);
    }, 'items');
    expect(items).toEqual([1, 2, 3, 4]);
    expect(cursors).toEqual([undefined, 'b', 'c']);
  });

  it('refuses a cursor seen before, so a looping server cannot loop the client', async () => {
    const walk = walkPages(() => Promise.resolve({ items: [1], nextCursor: 'same' }), 'items');
    await expect(walk).rejects.toBeInstanceOf(ProtocolViolationError);
  });

  it('stops after maxPages pages', async () => {
    let page = 0;
    const walk = walkPages(
      () => Promise.resolve({ items: [page], nextCursor: String(++page) }),
      'items',
      5,
    );
    await expect(walk).rejects.toThrow('maxPages');
    expect(page).toBe(5);
  });
});
