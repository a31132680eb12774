import { randomBytes } from 'node:crypto';
import {
  OccurrencePage,
  type LoggedOccurrence,
  type LogPosition,
  type LogRead,
  type NewOccurrence,
  type OccurrenceLog,
  type ReadOptions,
  type ReplayBounds,
} from '@rondo/events';
import { isPlainObject, type JsonObject } from '@rondo/protocol';
import { parseJson } from './channels.js';
import type { RedisConnection } from './connection.js';
import type { Keys } from './keys.js';
import { APPEND_OCCURRENCE, LOG_POSITION } from './occurrenceScripts.js';

/** Entries one XRANGE of a read asks for. */
const READ_BATCH = 100;

type RawEntry = [string, string[]];

/**
 * The Events extension's {@link OccurrenceLog} on Redis: each event type's replay buffer is a Redis
 * Stream whose entry ids are the occurrences' numbers (`<seq>-0`), bounded by the type's count,
 * bytes and age, so a cursor taken on one replica resumes on any other. Each append is published on
 * one channel (`<prefix>occurrences`) that every process subscribes to at start, so `emit` on any
 * replica reaches the push streams and webhook deliverers of all. A process disconnected from Redis
 * misses what is published meanwhile (pub/sub keeps nothing); a poll or a resumed stream reads it.
 */
export class RedisOccurrenceLog implements OccurrenceLog {
  private readonly followers = new Map<string, Set<(occurrence: LoggedOccurrence) => void>>();

  constructor(
    private readonly connection: RedisConnection,
    private readonly keys: Keys,
    private readonly now: () => number = Date.now,
  ) {
    connection.listen(keys.occurrencesChannel, (payload) => this.dispatch(payload));
  }

  async append(
    type: string,
    occurrence: NewOccurrence,
    bounds: ReplayBounds,
  ): Promise<LoggedOccurrence> {
    const [, seq] = await this.connection.script<[string, number]>(
      APPEND_OCCURRENCE,
      [this.keys.occurrences(type), this.keys.occurrenceLog(type)],
      [
        JSON.stringify(occurrence),
        bounds.count,
        bounds.bytes,
        bounds.ageMs,
        this.now(),
        freshEpoch(),
        this.keys.occurrencesChannel,
        JSON.stringify(type),
        occurrence.at,
      ],
    );
    return { ...occurrence, seq: Number(seq) };
  }

  async head(type: string): Promise<LogPosition> {
    return this.position(type);
  }

  async read(type: string, after: LogPosition, options: ReadOptions): Promise<LogRead> {
    const head = await this.position(type);
    const sameEpoch = after.epoch === head.epoch && after.seq <= head.seq;
    const from = sameEpoch ? after.seq : 0;
    const page = new OccurrencePage(options, from);
    let first: number | undefined;
    let batch: LoggedOccurrence[];
    do {
      batch = await this.range(type, page.position);
      first ??= batch[0]?.seq;
    } while (page.take(batch) && batch.length === READ_BATCH);
    // Lost: something followed the position and is gone (or the position is of another memory).
    const truncated = !sameEpoch || (from < head.seq && (first ?? head.seq + 1) > from + 1);
    const position = page.hasMore ? page.position : Math.max(page.position, head.seq);
    return {
      occurrences: page.occurrences,
      truncated,
      position: { epoch: head.epoch, seq: position },
      hasMore: page.hasMore,
    };
  }

  follow(type: string, listener: (occurrence: LoggedOccurrence) => void): () => void {
    let listeners = this.followers.get(type);
    if (listeners === undefined) {
      listeners = new Set();
      this.followers.set(type, listeners);
    }
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0) this.followers.delete(type);
    };
  }

  private async position(type: string): Promise<LogPosition> {
    const [epoch, seq] = await this.connection.script<[string, number]>(
      LOG_POSITION,
      [this.keys.occurrences(type), this.keys.occurrenceLog(type)],
      [this.now(), freshEpoch()],
    );
    return { epoch, seq: Number(seq) };
  }

  /** The next entries of a type's stream after the occurrence numbered `after`. */
  private async range(type: string, after: number): Promise<LoggedOccurrence[]> {
    const entries = await this.connection.call<RawEntry[]>([
      'XRANGE',
      this.keys.occurrences(type),
      `(${after}-0`,
      '+',
      'COUNT',
      String(READ_BATCH),
    ]);
    const occurrences: LoggedOccurrence[] = [];
    for (const [entryId, fields] of entries) {
      const occurrence = decodeOccurrence(Number(entryId.split('-')[0]), parseJson(fields[1]!));
      if (occurrence === undefined)
        this.connection.report(`skipped a malformed occurrence of ${type}`);
      else occurrences.push(occurrence);
    }
    return occurrences;
  }

  private dispatch(payload: string): void {
    const message = parseJson(payload);
    if (!isPlainObject(message) || typeof message.type !== 'string') {
      this.connection.report('skipped a malformed occurrence message');
      return;
    }
    const listeners = this.followers.get(message.type);
    if (listeners === undefined) return;
    const occurrence = decodeOccurrence(message.seq, message.occurrence);
    if (occurrence === undefined) {
      this.connection.report(`skipped a malformed occurrence message of ${message.type}`);
      return;
    }
    for (const listener of [...listeners]) this.connection.safely(() => listener(occurrence));
  }
}

/** An occurrence as stored and published, checked; `undefined` when it is not one. */
function decodeOccurrence(seq: unknown, value: unknown): LoggedOccurrence | undefined {
  if (typeof seq !== 'number' || !Number.isSafeInteger(seq) || !isPlainObject(value))
    return undefined;
  const { eventId, at, data, match } = value;
  if (typeof eventId !== 'string' || typeof at !== 'number' || !isPlainObject(data))
    return undefined;
  if (match !== undefined && !isPlainObject(match)) return undefined;
  const occurrence = { eventId, at, data: data as JsonObject, seq };
  return match === undefined ? occurrence : { ...occurrence, match: match as JsonObject };
}

/** A new log's epoch: a Redis that lost its memory makes another, so old cursors read as truncated. */
function freshEpoch(): string {
  return randomBytes(6).toString('hex');
}
