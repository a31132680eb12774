import {
  streamKeyOf,
  type Awaitable,
  type Connection,
  type EventStore,
  type ReplayedEvents,
  type SessionRecord,
  type SessionRelay,
  type SessionStore,
} from '@rondo/core';
import { randomToken } from '@rondo/core/internal';
import type { JsonRpcMessage } from '@rondo/protocol';
import type { RelayTarget } from './peerRelay.js';
import { SessionStream } from './sessionStream.js';
import type { SseResponse } from './sse.js';
import { followUntilAnswer } from './streamFollower.js';

/** How many stream ids a session remembers for cleanup; older streams' events are forgotten early. */
const MAX_KNOWN_STREAMS = 1000;

/** The message one process sends the others when a session ends there (a DELETE). */
export const SESSION_ENDED = 'notifications/rondo/session_ended';

/** How a session tells its registry about its life. */
export interface SessionHooks {
  used(session: Session): void;
  closed(session: Session): void;
  /** A store of events failed; the transport's error hook hears it. */
  readonly storeFailed: (error: unknown) => void;
}

/**
 * Where a session's record lives and how its messages reach the other processes serving it: the
 * shared state's stores, or this process's memory defaults (a store of `scope: 'process'`, a relay
 * with no other process).
 */
export interface SessionSharing {
  readonly sessions: SessionStore;
  readonly relay: SessionRelay;
  /** How long an unused session lives in the store (the idle timeout). */
  readonly ttlMs: number;
}

/** True when only this process reads the session store: a session ends with its copy here. */
export function soloScope(sharing: SessionSharing): boolean {
  return sharing.sessions.scope === 'process';
}

/** What resuming a stream gave. */
export type Resumption = 'resumed' | 'unknown' | 'conflict';

/**
 * A session: a stateful Connection kept between POSTs, found by its `Mcp-Session-Id`. It is also
 * where its connection's own messages go (the relay's target). Thousands of idle sessions may be
 * live at once, so a session holds no timer (its registry sweeps for expiry) and makes its tables
 * of streams only when it opens its first POST stream. It is this process's copy of a record in
 * the session store (`sharing`): its state is saved there when it changes, and, when other
 * processes read the store, any of them may serve it and its streams' events live in the shared
 * event store.
 */
export class Session implements RelayTarget {
  /** The standalone stream a GET opens for session-wide messages. */
  readonly standalone: SessionStream;
  /** POST streams whose last event is not written yet. */
  private live: Map<string, SessionStream> | undefined;
  /** Ids of POST streams whose events may still be stored, oldest first, for cleanup. */
  private known: Set<string> | undefined;
  /**
   * Stream ids are `<key>.<n>`, the key a prefix of the session id (`streamKeyOf`), so an event id
   * is no session credential; the POST streams of a session other processes serve add a part of
   * this process.
   */
  private readonly streamPrefix: string;
  private readonly streamKey: string;
  /** True when the session ends with this copy (see {@link soloScope}); its events go with it. */
  private readonly solo: boolean;
  private nextStream = 1;
  /** When the session was last used (`Date.now()`), for expiry. */
  lastUsed = Date.now();
  /** The snapshot last saved to (or loaded from) the session store, as text. */
  savedState: string | undefined;
  /** The record last saved or loaded, so a load giving that very record needs no comparing. */
  savedRecord: SessionRecord | undefined;
  private closed = false;

  constructor(
    readonly id: string,
    readonly connection: Connection,
    /** The principal that opened the session; other principals cannot use it. */
    readonly principalId: string | undefined,
    /** The client the session counts against (see `clientOf`): its principal, or its address. */
    readonly client: string,
    private readonly store: EventStore | undefined,
    private readonly hooks: SessionHooks,
    readonly sharing: SessionSharing,
  ) {
    this.streamKey = streamKeyOf(id);
    this.standalone = this.makeStream(`${this.streamKey}.0`, true);
    this.solo = soloScope(sharing);
    this.streamPrefix = this.solo ? `${this.streamKey}.` : `${this.streamKey}.${randomToken(6)}-`;
  }

  /** Opens the stream of one POST response. */
  openStream(): SessionStream {
    const stream = this.makeStream(`${this.streamPrefix}${this.nextStream++}`, false);
    (this.live ??= new Map()).set(stream.id, stream);
    this.remember(stream.id);
    return stream;
  }

  /** POST streams whose last event is not written yet, whether or not a response receives them. */
  get streamCount(): number {
    return this.live?.size ?? 0;
  }

  /** Called when a POST stream wrote its last event. */
  streamFinished(stream: SessionStream): void {
    this.live?.delete(stream.id);
  }

  /** A message on the connection's own channel: the standalone stream carries it. */
  write(message: JsonRpcMessage, once?: string): void {
    this.standalone.write(message, once);
  }

  /** Ends the response receiving the standalone stream, when the client can resume it. */
  closeStream(): void {
    if (this.resumable) this.standalone.detach();
  }

  /**
   * True when a stream of this session may end before its last event: its client resumes streams
   * (its revision says so) and an event store keeps what it would miss meanwhile.
   */
  get resumable(): boolean {
    return this.store !== undefined && this.connection.resumesStreams === true;
  }

  /** Marks activity, postponing expiry (and eviction: the least recently used session goes first). */
  touch(): void {
    this.lastUsed = Date.now();
    this.hooks.used(this);
  }

  /** True with no request in flight and no response receiving one of its streams. */
  get idle(): boolean {
    if (this.connection.inFlight !== 0 || this.standalone.attached) return false;
    if (this.live) for (const stream of this.live.values()) if (stream.attached) return false;
    return true;
  }

  /**
   * Saves the session's state to the session store when it changed since it was last saved or
   * loaded; `undefined` when the store has it (saved now, at once, or before). A store only this
   * process reads keeps the record the registry saved at creation: no other process rebuilds the
   * session from a later one, so this copy spares snapshotting every request.
   */
  persist(): Promise<void> | undefined {
    if (this.solo) return undefined;
    const snapshot = this.connection.snapshot?.();
    if (!snapshot) return undefined;
    const text = JSON.stringify(snapshot);
    if (text === this.savedState) return undefined;
    const record = { principalId: this.principalId, state: snapshot };
    const saved = () => {
      this.savedState = text;
      this.savedRecord = record;
    };
    const saving = this.sharing.sessions.save(this.id, record, this.sharing.ttlMs);
    if (saving instanceof Promise) return saving.then(saved);
    saved();
    return undefined;
  }

  /**
   * Resumes a stream of this session on a response `openSink` opens, from the event after
   * `lastEventId`. Opens nothing and answers `unknown` when the id is unknown (never issued,
   * evicted, or another session's), or `conflict` when it is the standalone stream's and a response
   * already receives that stream (a session has one standalone stream at a time).
   */
  resume(lastEventId: string, openSink: () => SseResponse): Awaitable<Resumption> {
    // A store in memory answers at once, and the stream is attached before anything else is written.
    const replay = this.store?.replayAfter(lastEventId);
    if (replay instanceof Promise)
      return replay.then((events) => this.resumeWith(events, lastEventId, openSink));
    return this.resumeWith(replay, lastEventId, openSink);
  }

  private resumeWith(
    replay: ReplayedEvents | undefined,
    lastEventId: string,
    openSink: () => SseResponse,
  ): Resumption {
    if (!replay || !this.owns(replay.streamId)) return 'unknown';
    const standalone = replay.streamId === this.standalone.id;
    if (standalone && this.standalone.attached) return 'conflict';
    const sink = openSink();
    const stream = standalone ? this.standalone : this.live?.get(replay.streamId);
    if (stream) {
      stream.attach(sink, replay.events, lastEventId);
    } else if (this.store?.follow) {
      // A stream another process writes (or wrote): what it stored, then what it still adds.
      followUntilAnswer(this.store, replay.streamId, lastEventId, sink, this.hooks.storeFailed);
    } else {
      for (const event of replay.events) if (event.message) sink.write(event);
      sink.end();
    }
    return 'resumed';
  }

  /**
   * Closes this copy of the session: aborts its work and closes its streams. When the session ends
   * with it (a store only this process reads), its record and its streams' events go too;
   * otherwise they stay for the other processes (the stores expire them).
   */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.connection.close();
    this.standalone.finish();
    if (this.live) for (const stream of this.live.values()) stream.finish();
    this.live = undefined;
    if (this.solo) {
      void this.sharing.sessions.delete(this.id);
      void this.store?.forget(this.standalone.id);
      if (this.known) for (const streamId of this.known) void this.store?.forget(streamId);
    }
    this.known = undefined;
    this.hooks.closed(this);
  }

  /**
   * Ends the session in every process (a DELETE): the record goes, the other processes are told
   * to drop their copies, and this one closes.
   */
  async end(): Promise<void> {
    await this.sharing.sessions.delete(this.id);
    await this.sharing.relay.forward(this.id, { jsonrpc: '2.0', method: SESSION_ENDED });
    this.close();
  }

  /** True for the standalone stream and this session's POST streams (any process's). */
  private owns(streamId: string): boolean {
    if (streamId === this.standalone.id || this.known?.has(streamId)) return true;
    return streamId.startsWith(`${this.streamKey}.`);
  }

  private makeStream(id: string, standalone: boolean): SessionStream {
    return new SessionStream(id, this.store, standalone, this.hooks.storeFailed);
  }

  /** Records a POST stream's id; past the cap the oldest finished one's events are forgotten. */
  private remember(streamId: string): void {
    const known = (this.known ??= new Set());
    known.add(streamId);
    if (known.size <= MAX_KNOWN_STREAMS) return;
    const oldest = known.values().next().value;
    if (oldest !== undefined && !this.live?.has(oldest)) {
      known.delete(oldest);
      if (this.solo) void this.store?.forget(oldest);
    }
  }
}
