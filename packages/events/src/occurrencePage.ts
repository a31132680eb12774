import type { LoggedOccurrence, ReadOptions } from './occurrenceLog.js';

/**
 * One read's page, gathered from runs of a log in order after a position: the occurrences the
 * reader wants (recent enough, accepted) up to its limit, and the position after the last one
 * looked at. Every {@link OccurrenceLog} reads through one, so each store pages alike.
 */
export class OccurrencePage {
  readonly occurrences: LoggedOccurrence[] = [];
  /** True once an accepted occurrence was left for the next read. */
  hasMore = false;

  /** `position` starts as the position read after (a sequence number). */
  constructor(
    private readonly options: ReadOptions,
    public position: number,
  ) {}

  /** Takes `run` in order; false once the page is full, the rest left for the next read. */
  take(run: Iterable<LoggedOccurrence>): boolean {
    const { since, accept, limit } = this.options;
    for (const occurrence of run) {
      const wanted = (since === undefined || occurrence.at >= since) && accept(occurrence);
      if (wanted && this.occurrences.length >= limit) {
        this.hasMore = true;
        return false;
      }
      if (wanted) this.occurrences.push(occurrence);
      this.position = occurrence.seq;
    }
    return true;
  }
}
