/** Bytes of one of an upstream's lists a proxy keeps, as JSON, unless told otherwise: 8 MiB. */
export const DEFAULT_MAX_CATALOG_BYTES = 8 * 1024 * 1024;

/** Pages of one list a proxy reads at most, as the client's own walk does. */
const MAX_PAGES = 1000;

/** How much of an upstream's catalog a proxy holds. */
export interface CatalogLimits {
  /**
   * Bytes of each of the upstream's lists (tools, prompts, resources, templates), as JSON, the
   * proxy keeps: items past it are left out, with a warning. Default 8 MiB.
   */
  readonly maxCatalogBytes?: number;
}

/** One page of an upstream's list, whatever its member is called. */
export interface ListPage<T> {
  readonly items: readonly T[];
  readonly nextCursor?: string | undefined;
}

const encoder = new TextEncoder();

/**
 * Reads every page of an upstream's list and keeps, in order, the items that fit in `budget`
 * bytes (each item's JSON): one that does not fit what is left is left out, and the pages go on
 * (a smaller item may still fit). Only the kept items and the page at hand are held, so a list of
 * any size costs at most `budget` plus one page (a page is bounded by the client's frame limit).
 * `warn` says once what was left out. A cursor seen before, or more than 1,000 pages, ends the
 * walk with an error, as the client's own walk does.
 */
export async function readWithinBudget<T>(
  list: string,
  fetchPage: (cursor: string | undefined) => Promise<ListPage<T>>,
  budget: number,
  warn: (message: string) => void,
): Promise<T[]> {
  const kept: T[] = [];
  const seen = new Set<string>();
  let used = 0;
  let leftOut = 0;
  let leftOutBytes = 0;
  let cursor: string | undefined;
  for (let pages = 0; ; pages += 1) {
    if (pages >= MAX_PAGES) throw new Error(`${list}: the list goes on past ${MAX_PAGES} pages`);
    const page = await fetchPage(cursor);
    for (const item of page.items) {
      const size = encoder.encode(JSON.stringify(item)).length;
      if (used + size > budget) {
        leftOut += 1;
        leftOutBytes += size;
        continue;
      }
      used += size;
      kept.push(item);
    }
    cursor = page.nextCursor;
    if (cursor === undefined) break;
    if (seen.has(cursor)) throw new Error(`${list}: the upstream repeated the cursor ${cursor}`);
    seen.add(cursor);
  }
  if (leftOut > 0) {
    warn(
      `${list}: ${leftOut} item(s) of ${mib(leftOutBytes)} left out: the list passes ` +
        `maxCatalogBytes (${mib(budget)}); ${kept.length} kept (${mib(used)})`,
    );
  }
  return kept;
}

function mib(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}
