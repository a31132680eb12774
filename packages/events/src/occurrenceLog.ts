import type { Awaitable } from '@rondo/core';
import type { JsonObject } from '@rondo/protocol';

/**
 * The state of the Events extension that outlives a request: per event type, the occurrences a
 * cursor may resume from (the replay buffer), in order, and the live feed push streams follow.
 * The memory default is {@link MemoryOccurrenceLog}; a shared implementation (Redis Streams) keeps
 * the same contract, so a cursor taken in one process resumes in another.
 */
export interface OccurrenceLog {
  /** Stores one occurrence at the end of its type's log, then forgets what `bounds` no longer allow. */
  append(
    type: string,
    occurrence: NewOccurrence,
    bounds: ReplayBounds,
  ): Awaitable<LoggedOccurrence>;
  /** The position after the newest occurrence of a type ("now"). */
  head(type: string): Awaitable<LogPosition>;
  /** Reads the occurrences after `after` that `options.accept` takes, at most `options.limit`. */
  read(type: string, after: LogPosition, options: ReadOptions): Awaitable<LogRead>;
  /** Calls `listener` with each occurrence appended from now on; returns the function that stops. */
  follow(type: string, listener: (occurrence: LoggedOccurrence) => void): () => void;
}

/** How much of an event type's past its log keeps. */
export interface ReplayBounds {
  /** Occurrences kept. */
  readonly count: number;
  /** Bytes of occurrence JSON kept; an occurrence larger than this alone is delivered live, not kept. */
  readonly bytes: number;
  /** How long an occurrence is kept (ms). */
  readonly ageMs: number;
}

/** An occurrence as `emit` hands it to the log. */
export interface NewOccurrence {
  readonly eventId: string;
  /** When it happened, ms since the epoch. */
  readonly at: number;
  readonly data: JsonObject;
  /** The subscription arguments it is for (see `EmitOptions.match`); absent: every subscription. */
  readonly match?: JsonObject | undefined;
}

/** An occurrence with its place in the log. */
export interface LoggedOccurrence extends NewOccurrence {
  /** Its sequence number in its type's log, from 1. */
  readonly seq: number;
}

/**
 * A place in one type's log: after the occurrence numbered `seq` of the log's `epoch` (a log that
 * lost its memory, a restarted process's, has another epoch, so an old position reads as truncated).
 */
export interface LogPosition {
  readonly epoch: string;
  readonly seq: number;
}

/** What a read takes. */
export interface ReadOptions {
  /** The most occurrences answered. */
  readonly limit: number;
  /** Occurrences older than this (ms since the epoch) are passed over without counting as lost. */
  readonly since?: number | undefined;
  /** Which occurrences the reader wants (a subscription's matching rule); the others are passed over. */
  readonly accept: (occurrence: LoggedOccurrence) => boolean;
}

/** What a read answers. */
export interface LogRead {
  readonly occurrences: readonly LoggedOccurrence[];
  /** True when occurrences after the position asked for were forgotten before this read. */
  readonly truncated: boolean;
  /** The position after the last occurrence looked at (the head when the read reached it). */
  readonly position: LogPosition;
  /** True when an accepted occurrence remains after `position`. */
  readonly hasMore: boolean;
}
