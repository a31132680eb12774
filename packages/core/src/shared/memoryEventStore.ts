import { serializeMessage, type JsonRpcMessage } from '@rondo/protocol';
import type { EventStore, ReplayedEvents } from '../contracts/eventStore.js';

/** The in-memory {@link EventStore}: every member answers at once. */
export interface MemoryEventStore extends EventStore {
  append(streamId: string, message: JsonRpcMessage | undefined): string;
  replayAfter(eventId: string): ReplayedEvents | undefined;
  forget(streamId: string): void;
}

/** Limits of the in-memory event store. */
export interface MemoryEventStoreOptions {
  /** Events kept per stream; the oldest go first. Default 1000. */
  maxEventsPerStream?: number;
  /** Events kept across all streams; the oldest go first. Default 10 000. */
  maxEvents?: number;
  /**
   * Events kept across the streams of one session, so one session cannot push the others' events
   * out; its oldest stream's oldest events go first. Default 2000.
   */
  maxEventsPerSession?: number;
  /**
   * Bytes of events (their JSON) kept per stream; the oldest go first, and an event larger than
   * this alone is sent but not kept. Default 8 MiB.
   */
  maxEventBytesPerStream?: number;
  /** Bytes of events kept across the streams of one session, its oldest stream first. Default 16 MiB. */
  maxEventBytesPerSession?: number;
  /** Bytes of events kept across all streams, the oldest first. Default 128 MiB. */
  maxEventBytes?: number;
}

/** The defaults of {@link MemoryEventStoreOptions}. */
export const MEMORY_EVENT_STORE_DEFAULTS = {
  maxEventsPerStream: 1000,
  maxEvents: 10_000,
  maxEventsPerSession: 2000,
  maxEventBytesPerStream: 8 * 1024 * 1024,
  maxEventBytesPerSession: 16 * 1024 * 1024,
  maxEventBytes: 128 * 1024 * 1024,
} as const;

/** The streams of one session that have events, oldest first, and how many events they hold. */
interface SessionLog {
  count: number;
  bytes: number;
  streams: string[];
}

interface StreamLog {
  /** Sequence number of `events[0]`. */
  firstSeq: number;
  events: (JsonRpcMessage | undefined)[];
  /** The size of each event, as `events` holds them. */
  sizes: number[];
  bytes: number;
}

/**
 * The default {@link EventStore}: bounded in events and in bytes per stream, per session and in
 * total, evicting the oldest events. It answers at once, so one process's streams keep write order
 * without waiting. It ignores `once` keys: in one process each session exists once, and so does
 * each announcement.
 */
export function createMemoryEventStore(options: MemoryEventStoreOptions = {}): MemoryEventStore {
  return new MemoryEventLogs({ ...MEMORY_EVENT_STORE_DEFAULTS, ...definedOf(options) });
}

/** The event logs of every stream, with what each stream, each session and all of them hold. */
class MemoryEventLogs implements MemoryEventStore {
  private readonly streams = new Map<string, StreamLog>();
  private readonly sessions = new Map<string, SessionLog>();
  /** Stream ids in the order their events were appended: the front names the oldest event overall. */
  private readonly order: string[] = [];
  private count = 0;
  private bytes = 0;

  constructor(private readonly limits: Required<MemoryEventStoreOptions>) {}

  append(streamId: string, message: JsonRpcMessage | undefined): string {
    const { limits, order } = this;
    let log = this.streams.get(streamId);
    const fresh = !log;
    if (!log) this.streams.set(streamId, (log = { firstSeq: 0, events: [], sizes: [], bytes: 0 }));
    const size = message === undefined ? 0 : serializeMessage(message).length;
    log.events.push(message);
    log.sizes.push(size);
    log.bytes += size;
    this.bytes += size;
    order.push(streamId);
    this.count += 1;
    const session = this.sessionLogOf(streamId, fresh);
    session.count += 1;
    session.bytes += size;
    const id = eventId(streamId, log.firstSeq + log.events.length - 1);
    if (log.events.length > limits.maxEventsPerStream) this.dropOldestOf(streamId);
    while (log.bytes > limits.maxEventBytesPerStream) this.dropOldestOf(streamId);
    this.trimSession(session);
    while ((this.count > limits.maxEvents || this.bytes > limits.maxEventBytes) && order.length > 0)
      this.dropOldestOf(order.shift() ?? '');
    if (order.length > limits.maxEvents * 2) compact(order, this.streams);
    return id;
  }

  replayAfter(id: string): ReplayedEvents | undefined {
    const parsed = parseEventId(id);
    const log = parsed && this.streams.get(parsed.streamId);
    if (!parsed || !log) return undefined;
    const start = parsed.seq + 1 - log.firstSeq;
    if (start < 0 || parsed.seq >= log.firstSeq + log.events.length) return undefined;
    const events = log.events.slice(start).map((message, index) => ({
      id: eventId(parsed.streamId, log.firstSeq + start + index),
      message,
    }));
    return { streamId: parsed.streamId, events };
  }

  forget(streamId: string): void {
    const log = this.streams.get(streamId);
    if (!log) return;
    this.count -= log.events.length;
    this.bytes -= log.bytes;
    this.streams.delete(streamId);
    const key = sessionOf(streamId);
    const session = this.sessions.get(key);
    if (!session) return;
    session.count -= log.events.length;
    session.bytes -= log.bytes;
    session.streams = session.streams.filter((id) => id !== streamId);
    if (session.streams.length === 0) this.sessions.delete(key);
  }

  private dropOldestOf(streamId: string): void {
    const log = this.streams.get(streamId);
    if (!log || log.events.length === 0) return;
    log.events.shift();
    const size = log.sizes.shift() ?? 0;
    log.bytes -= size;
    this.bytes -= size;
    log.firstSeq += 1;
    this.count -= 1;
    const session = this.sessions.get(sessionOf(streamId));
    if (session) {
      session.count -= 1;
      session.bytes -= size;
    }
  }

  /** The session log of a stream, which it joins with its first event. */
  private sessionLogOf(streamId: string, fresh: boolean): SessionLog {
    const key = sessionOf(streamId);
    let session = this.sessions.get(key);
    if (!session) this.sessions.set(key, (session = { count: 0, bytes: 0, streams: [] }));
    if (fresh) session.streams.push(streamId);
    return session;
  }

  private trimSession(session: SessionLog): void {
    const { maxEventsPerSession, maxEventBytesPerSession } = this.limits;
    while (session.count > maxEventsPerSession || session.bytes > maxEventBytesPerSession) {
      const oldest = session.streams.find((id) => (this.streams.get(id)?.events.length ?? 0) > 0);
      if (oldest === undefined) return;
      this.dropOldestOf(oldest);
    }
  }
}

/** The options that are set, so spreading them over the defaults keeps a default for each unset one. */
function definedOf(
  options: MemoryEventStoreOptions,
): Partial<Record<keyof MemoryEventStoreOptions, number>> {
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined));
}

/** The session part of a stream id: what comes before its last `.` (the whole id without one). */
function sessionOf(streamId: string): string {
  const dot = streamId.lastIndexOf('.');
  return dot > 0 ? streamId.slice(0, dot) : streamId;
}

function eventId(streamId: string, seq: number): string {
  return `${streamId}:${seq}`;
}

function parseEventId(id: string): { streamId: string; seq: number } | undefined {
  const colon = id.lastIndexOf(':');
  const seq = Number(id.slice(colon + 1));
  if (colon <= 0 || !Number.isSafeInteger(seq) || seq < 0) return undefined;
  return { streamId: id.slice(0, colon), seq };
}

/** Drops order entries of forgotten or emptied streams so the order list stays bounded. */
function compact(order: string[], streams: Map<string, StreamLog>): void {
  const remaining = new Map<string, number>();
  for (const [id, log] of streams) remaining.set(id, log.events.length);
  const kept: string[] = [];
  // Walk from the newest entry: each stream keeps as many entries as it still has events.
  for (let index = order.length - 1; index >= 0; index -= 1) {
    const id = order[index] ?? '';
    const left = remaining.get(id) ?? 0;
    if (left > 0) {
      kept.push(id);
      remaining.set(id, left - 1);
    }
  }
  order.splice(0, order.length, ...kept.reverse());
}
