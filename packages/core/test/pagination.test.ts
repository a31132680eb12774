import { describe, expect, it } from 'vitest';
import { paginate } from '@rondo/core/internal';

describe('paginate', () => {
  const items = Array.from({ length: 25 }, (_, i) => i);

  it('walks every item once, in order, through the cursors', () => {
    const seen: number[] = [];
    let cursor: string | undefined;
    do {
      const page = paginate(items, cursor, 10);
      seen.push(...page.items);
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(items);
  });

  it('gives no cursor on the last page', () => {
    expect(paginate(items, undefined, 100).nextCursor).toBeUndefined();
  });

  it('rejects a cursor it did not issue with -32602', () => {
    for (const bad of ['nope', 42, Buffer.from('o:999').toString('base64url')]) {
      expect(() => paginate(items, bad, 10)).toThrow(expect.objectContaining({ code: -32602 }));
    }
  });
});

describe('paginate by bytes', () => {
  const sizes = [4, 4, 4, 9, 1, 1, 30, 2];
  const bytes = { max: 10, sizeOf: (item: number) => item };

  it('cuts a page before the item that would pass the byte bound, keeping one at least', () => {
    const pages: number[][] = [];
    let cursor: string | undefined;
    do {
      const page = paginate(sizes, cursor, 100, bytes);
      pages.push(page.items);
      cursor = page.nextCursor;
    } while (cursor);
    // 4+4 fits 10, a third 4 does not; 9+1 fits; an item larger than the bound goes alone.
    expect(pages).toEqual([[4, 4], [4], [9, 1], [1], [30], [2]]);
  });

  it('still stops at pageSize items', () => {
    expect(paginate([1, 1, 1, 1], undefined, 3, bytes).items).toEqual([1, 1, 1]);
  });
});
