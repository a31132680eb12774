import { h } from './dom.js';
import { textOf, type JsonObject } from './jsonRpc.js';

/** How many entries the feed keeps: a ticking clock watched for an hour must not grow the page. */
const MAX_ENTRIES = 100;

/** How an occurrence reached the page. */
export type Delivery = 'push' | 'poll';

/** A line of the feed that is not an occurrence: where a stream started, a gap, an error. */
export type NoteKind = 'info' | 'truncated' | 'error';

/** The occurrence's time as the reader's clock shows it, or the server's text when it is not a date. */
function timeOf(timestamp: unknown): string {
  const text = textOf(timestamp);
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? text : date.toLocaleTimeString();
}

/**
 * The occurrences the Events panel received, newest first, so the newest is in view without
 * scrolling: each shows its time, type, how it came (push or poll) and its `data`; its `eventId`
 * is kept on the entry, since a client deduplicates on it. Notes (a stream opening, `truncated`,
 * an error) go in the same list, where they happened.
 */
export class EventFeed {
  constructor(private readonly list: HTMLElement) {}

  /** Adds one occurrence (`{ eventId, name, timestamp, data, cursor }`) at the top. */
  add(occurrence: JsonObject, via: Delivery): void {
    const data = JSON.stringify(occurrence.data ?? {});
    this.prepend(
      h(
        'li',
        {
          class: `event-occurrence ${via}`,
          'data-testid': 'event-occurrence',
          'data-event-id': textOf(occurrence.eventId),
          'data-name': textOf(occurrence.name),
          'data-via': via,
        },
        h('time', { datetime: textOf(occurrence.timestamp) }, timeOf(occurrence.timestamp)),
        ' ',
        h('span', { class: `via ${via}`, title: `delivered by ${via}` }, via),
        ' ',
        h('strong', {}, textOf(occurrence.name)),
        ' ',
        h('code', { 'data-testid': 'event-data' }, data),
      ),
    );
  }

  /** Adds a note at the top. */
  note(text: string, kind: NoteKind = 'info'): void {
    this.prepend(
      h(
        'li',
        { class: `event-note ${kind}`, 'data-testid': 'event-note', 'data-kind': kind },
        `${new Date().toLocaleTimeString()} ${text}`,
      ),
    );
  }

  /** Empties the feed. */
  clear(): void {
    this.list.replaceChildren();
  }

  private prepend(entry: HTMLElement): void {
    this.list.prepend(entry);
    while (this.list.childElementCount > MAX_ENTRIES) this.list.lastElementChild?.remove();
  }
}
