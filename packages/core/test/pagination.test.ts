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
