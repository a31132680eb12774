import { ProtocolViolationError } from './errors.js';
import type { Page } from './types.js';

/** Pages one walk follows at most, so a server that never stops sending cursors cannot loop the client. Default 1,000. */
export const DEFAULT_MAX_PAGES = 1000;

/**
 * Walks every page of a list, starting without a cursor, and collects the `key` member of each.
 * A cursor the walk has seen before, or more than `maxPages` pages, is a protocol violation.
 */
export async function walkPages<P extends Page, K extends keyof P>(
  fetchPage: (cursor: string | undefined) => Promise<P>,
  key: K,
  maxPages = DEFAULT_MAX_PAGES,
): Promise<P[K] extends readonly (infer T)[] ? T[] : never> {
  const items: unknown[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let pages = 0; ; pages += 1) {
    if (pages >= maxPages) {
      throw new ProtocolViolationError(`the list goes on past ${maxPages} pages (limit maxPages)`);
    }
    const page = await fetchPage(cursor);
    const members = page[key];
    if (Array.isArray(members)) items.push(...(members as unknown[]));
    cursor = page.nextCursor;
    if (cursor === undefined) break;
    if (seen.has(cursor))
      throw new ProtocolViolationError(`the server repeated the cursor ${cursor}`);
    seen.add(cursor);
  }
  return items as P[K] extends readonly (infer T)[] ? T[] : never;
}
