import type { CursorCodec } from './cursors.js';
import type { EventType } from './eventType.js';
import type { OccurrenceLog } from './occurrenceLog.js';
import type { StreamRegistry } from './streamRegistry.js';

/** What the extension's methods share: the declared types, the log, the cursors, the limits. */
export interface EventsHost {
  readonly types: ReadonlyMap<string, EventType>;
  readonly log: OccurrenceLog;
  readonly codec: CursorCodec;
  readonly streams: StreamRegistry;
  readonly limits: EventsLimits;
  readonly now: () => number;
}

/** The extension's limits and pacing, resolved from its options. */
export interface EventsLimits {
  /** Events one poll answers without `maxEvents`. */
  readonly pollEvents: number;
  /** The `nextPollMs` a poll answers when nothing more is waiting. */
  readonly nextPollMs: number;
  /** How often an open stream says it is alive. */
  readonly heartbeatMs: number;
  /** Open `events/stream` requests of one client. */
  readonly maxStreamsPerClient: number;
}
