import type {
  LoggedOccurrence,
  LogPosition,
  LogRead,
  NewOccurrence,
  OccurrenceLog,
  ReadOptions,
  ReplayBounds,
} from './occurrenceLog.js';
import { OccurrencePage } from './occurrencePage.js';

/** One type's log in memory: its retained occurrences, oldest first, and their size. */
interface TypeLog {
  readonly entries: { occurrence: LoggedOccurrence; bytes: number }[];
  bytes: number;
  /** The number of the newest occurrence ever appended (0: none). */
  head: number;
  bounds: ReplayBounds | undefined;
  readonly listeners: Set<(occurrence: LoggedOccurrence) => void>;
}

/**
 * The in-memory {@link OccurrenceLog}: one process's replay buffers, each bounded by its type's
 * {@link ReplayBounds} (count, bytes, age), and a live feed that reaches this process's streams.
 */
export class MemoryOccurrenceLog implements OccurrenceLog {
  /** This log's memory: a cursor of another epoch (another process, a restart) reads as truncated. */
  readonly epoch = randomEpoch();
  private readonly types = new Map<string, TypeLog>();

  constructor(private readonly now: () => number = Date.now) {}

  append(type: string, occurrence: NewOccurrence, bounds: ReplayBounds): LoggedOccurrence {
    const log = this.log(type);
    log.bounds = bounds;
    log.head += 1;
    const logged: LoggedOccurrence = { ...occurrence, seq: log.head };
    const bytes = JSON.stringify(logged).length;
    log.entries.push({ occurrence: logged, bytes });
    log.bytes += bytes;
    this.prune(log);
    for (const listener of [...log.listeners]) listener(logged);
    return logged;
  }

  head(type: string): LogPosition {
    return { epoch: this.epoch, seq: this.log(type).head };
  }

  read(type: string, after: LogPosition, options: ReadOptions): LogRead {
    const log = this.log(type);
    this.prune(log);
    const sameEpoch = after.epoch === this.epoch && after.seq <= log.head;
    const from = sameEpoch ? after.seq : 0;
    const oldest = log.entries[0]?.occurrence.seq ?? log.head + 1;
    // Lost: something followed the position and is gone (or the position is of another memory).
    const truncated = !sameEpoch || (from + 1 < oldest && from < log.head);
    const page = new OccurrencePage(options, from);
    page.take(occurrencesAfter(log, from));
    const position = page.hasMore ? page.position : log.head;
    return {
      occurrences: page.occurrences,
      truncated,
      position: { epoch: this.epoch, seq: position },
      hasMore: page.hasMore,
    };
  }

  follow(type: string, listener: (occurrence: LoggedOccurrence) => void): () => void {
    const listeners = this.log(type).listeners;
    listeners.add(listener);
    return () => listeners.delete(listener);
  }

  private log(type: string): TypeLog {
    let log = this.types.get(type);
    if (log === undefined) {
      log = { entries: [], bytes: 0, head: 0, bounds: undefined, listeners: new Set() };
      this.types.set(type, log);
    }
    return log;
  }

  /** Forgets the oldest occurrences while the log holds more than its bounds allow. */
  private prune(log: TypeLog): void {
    const bounds = log.bounds;
    if (bounds === undefined) return;
    const oldestKept = this.now() - bounds.ageMs;
    while (log.entries.length > 0) {
      const first = log.entries[0]!;
      const over =
        log.entries.length > bounds.count ||
        log.bytes > bounds.bytes ||
        first.occurrence.at < oldestKept;
      if (!over) break;
      log.entries.shift();
      log.bytes -= first.bytes;
    }
  }
}

function randomEpoch(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(6));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

function* occurrencesAfter(log: TypeLog, seq: number): Generator<LoggedOccurrence> {
  for (const { occurrence } of log.entries) if (occurrence.seq > seq) yield occurrence;
}
