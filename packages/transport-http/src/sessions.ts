import type { Connection } from '@rondo/core';
import { randomToken } from '@rondo/core/internal';
import type { EventStore } from './eventStore.js';
import type { JsonRpcMessage } from '@rondo/protocol';
import type { PeerRelay, RelayTarget } from './peerRelay.js';
import { SessionStream } from './sessionStream.js';
import type { SseResponse } from './sse.js';
import { unrefTimer, type TimerHandle } from './timers.js';

/** How many stream ids a session remembers for cleanup; older streams' events are forgotten early. */
const MAX_KNOWN_STREAMS = 1000;

/** How a session tells its registry about its life. */
interface SessionHooks {
  used(session: Session): void;
  closed(session: Session): void;
}

/**
 * A session: a stateful Connection kept between POSTs, found by its `Mcp-Session-Id`. It is also
 * where its connection's own messages go (the relay's target). Thousands of idle sessions may be
 * live at once, so a session holds no timer (its registry sweeps for expiry) and makes its tables
 * of streams only when it opens its first POST stream.
 */
export class Session implements RelayTarget {
  /** The standalone stream a GET opens for session-wide messages. */
  readonly standalone: SessionStream;
  /** POST streams whose last event is not written yet. */
  private live: Map<string, SessionStream> | undefined;
  /** Ids of POST streams whose events may still be stored, oldest first, for cleanup. */
  private known: Set<string> | undefined;
  private nextStream = 0;
  /** When the session was last used (`Date.now()`), for expiry. */
  lastUsed = Date.now();
  private closed = false;

  constructor(
    readonly id: string,
    readonly connection: Connection,
    /** The principal that opened the session; other principals cannot use it. */
    readonly principalId: string | undefined,
    private readonly store: EventStore | undefined,
    private readonly hooks: SessionHooks,
  ) {
    this.standalone = new SessionStream(`${id}.${this.nextStream++}`, store, true);
  }

  /** Opens the stream of one POST response. */
  openStream(): SessionStream {
    const stream = new SessionStream(`${this.id}.${this.nextStream++}`, this.store, false);
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
  write(message: JsonRpcMessage): void {
    this.standalone.write(message);
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
   * Resumes a stream of this session on a response `openSink` opens, from the event after
   * `lastEventId`. Opens nothing and answers `unknown` when the id is unknown (never issued,
   * evicted, or another session's), or `conflict` when it is the standalone stream's and a response
   * already receives that stream (a session has one standalone stream at a time).
   */
  resume(lastEventId: string, openSink: () => SseResponse): 'resumed' | 'unknown' | 'conflict' {
    const replay = this.store?.replayAfter(lastEventId);
    if (!replay) return 'unknown';
    const standalone = replay.streamId === this.standalone.id;
    if (!standalone && !this.known?.has(replay.streamId)) return 'unknown';
    if (standalone && this.standalone.attached) return 'conflict';
    const sink = openSink();
    const stream = standalone ? this.standalone : this.live?.get(replay.streamId);
    if (stream) {
      stream.attach(sink, replay.events);
    } else {
      for (const event of replay.events) if (event.message) sink.write(event);
      sink.end();
    }
    return 'resumed';
  }

  /** Ends the session: aborts its work, closes its streams and forgets their events. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.connection.close();
    this.standalone.finish();
    if (this.live) for (const stream of this.live.values()) stream.finish();
    this.live = undefined;
    this.store?.forget(this.standalone.id);
    if (this.known) for (const streamId of this.known) this.store?.forget(streamId);
    this.known = undefined;
    this.hooks.closed(this);
  }

  /** Records a POST stream's id; past the cap the oldest finished one's events are forgotten. */
  private remember(streamId: string): void {
    const known = (this.known ??= new Set());
    known.add(streamId);
    if (known.size <= MAX_KNOWN_STREAMS) return;
    const oldest = known.values().next().value;
    if (oldest !== undefined && !this.live?.has(oldest)) {
      known.delete(oldest);
      this.store?.forget(oldest);
    }
  }
}

/** How many sessions a registry keeps live. */
export interface SessionLimits {
  maxSessions: number;
  /** For sessions opened by an authenticated principal. */
  maxSessionsPerPrincipal: number;
}

/**
 * The sessions of one handler, in least recently used order. At a cap, the least recently used
 * idle session (of the principal, for the per-principal cap) is closed to make room; when none is
 * idle, no session is created.
 */
export class SessionRegistry {
  /** Insertion order is use order: a touched session moves to the end. */
  private readonly sessions = new Map<string, Session>();
  private readonly perPrincipal = new Map<string, number>();
  private readonly hooks: SessionHooks = {
    used: (session) => {
      if (this.sessions.delete(session.id)) this.sessions.set(session.id, session);
    },
    closed: (session) => {
      if (!this.sessions.delete(session.id)) return;
      if (this.sessions.size === 0) this.stopSweeping();
      if (session.principalId === undefined) return;
      const count = (this.perPrincipal.get(session.principalId) ?? 1) - 1;
      if (count > 0) this.perPrincipal.set(session.principalId, count);
      else this.perPrincipal.delete(session.principalId);
    },
  };

  /** Runs while sessions are live: one timer for all of them, rather than one each. */
  private sweeper: TimerHandle | undefined;

  constructor(
    private readonly store: EventStore | undefined,
    private readonly idleTimeoutMs: number,
    private readonly limits: SessionLimits,
  ) {}

  /**
   * Registers a connection that became stateful, under a fresh cryptographically random id.
   * Undefined, registering nothing, when a cap is reached and no session can be evicted.
   */
  create(
    connection: Connection,
    relay: PeerRelay,
    principalId: string | undefined,
  ): Session | undefined {
    if (!this.makeRoom(principalId)) return undefined;
    // 32 random bytes in base64url: visible ASCII only, as the session id rules require.
    const id = randomToken(32);
    const session = new Session(id, connection, principalId, this.store, this.hooks);
    this.sessions.set(id, session);
    if (principalId !== undefined)
      this.perPrincipal.set(principalId, (this.perPrincipal.get(principalId) ?? 0) + 1);
    relay.bind(session);
    this.startSweeping();
    return session;
  }

  /** The live session with this id. */
  get(id: string): Session | undefined {
    return this.sessions.get(id);
  }

  /** How many sessions are live. */
  get size(): number {
    return this.sessions.size;
  }

  /** Closes every session. */
  closeAll(): void {
    for (const session of [...this.sessions.values()]) session.close();
  }

  /**
   * Closes the sessions unused for the idle timeout that are idle; a busy one (a request in flight,
   * a response receiving a stream) counts as used now. The map is in use order, so the walk stops
   * at the first session used recently.
   */
  private sweep(): void {
    const now = Date.now();
    for (const session of this.sessions.values()) {
      if (now - session.lastUsed < this.idleTimeoutMs) break;
      if (session.idle) session.close();
      else session.touch();
    }
  }

  private startSweeping(): void {
    if (this.sweeper !== undefined) return;
    // Often enough that a session outlives its timeout by at most a quarter of it (or a second).
    const every = Math.min(1000, Math.max(10, Math.floor(this.idleTimeoutMs / 4)));
    this.sweeper = unrefTimer(setInterval(() => this.sweep(), every));
  }

  private stopSweeping(): void {
    clearInterval(this.sweeper);
    this.sweeper = undefined;
  }

  /** Brings the counts below the caps a new session of `principalId` would reach. */
  private makeRoom(principalId: string | undefined): boolean {
    if (
      principalId !== undefined &&
      (this.perPrincipal.get(principalId) ?? 0) >= this.limits.maxSessionsPerPrincipal &&
      !this.evictIdle((session) => session.principalId === principalId)
    )
      return false;
    return this.sessions.size < this.limits.maxSessions || this.evictIdle(() => true);
  }

  /** Closes the least recently used idle session `eligible` accepts; false when there is none. */
  private evictIdle(eligible: (session: Session) => boolean): boolean {
    for (const session of this.sessions.values()) {
      if (eligible(session) && session.idle) {
        session.close();
        return true;
      }
    }
    return false;
  }
}
