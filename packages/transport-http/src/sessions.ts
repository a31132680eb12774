import { randomBytes } from 'node:crypto';
import type { Connection } from '@rondo/core';
import type { EventStore } from './eventStore.js';
import type { PeerRelay } from './peerRelay.js';
import { SessionStream } from './sessionStream.js';
import type { SseResponse } from './sse.js';

/** How many stream ids a session remembers for cleanup; older streams' events are forgotten early. */
const MAX_KNOWN_STREAMS = 1000;

/** How a session tells its registry about its life. */
interface SessionHooks {
  used(session: Session): void;
  closed(session: Session): void;
}

/** A session: a stateful Connection kept between POSTs, found by its `Mcp-Session-Id`. */
export class Session {
  /** The standalone stream a GET opens for session-wide messages. */
  readonly standalone: SessionStream;
  private readonly live = new Map<string, SessionStream>();
  private readonly known = new Set<string>();
  private nextStream = 0;
  private readonly idleTimer: NodeJS.Timeout;
  private closed = false;

  constructor(
    readonly id: string,
    readonly connection: Connection,
    /** The principal that opened the session; other principals cannot use it. */
    readonly principalId: string | undefined,
    private readonly store: EventStore | undefined,
    idleTimeoutMs: number,
    private readonly hooks: SessionHooks,
  ) {
    this.standalone = this.createStream(true);
    this.idleTimer = setTimeout(() => this.expireIfIdle(), idleTimeoutMs);
    this.idleTimer.unref();
  }

  /** Opens the stream of one POST response. */
  openStream(): SessionStream {
    const stream = this.createStream(false);
    this.live.set(stream.id, stream);
    return stream;
  }

  /** POST streams whose last event is not written yet, whether or not a response receives them. */
  get streamCount(): number {
    return this.live.size;
  }

  /** Called when a POST stream wrote its last event. */
  streamFinished(stream: SessionStream): void {
    this.live.delete(stream.id);
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
    this.idleTimer.refresh();
    this.hooks.used(this);
  }

  /** True with no request in flight and no response receiving one of its streams. */
  get idle(): boolean {
    return (
      this.connection.inFlight === 0 &&
      !this.standalone.attached &&
      ![...this.live.values()].some((stream) => stream.attached)
    );
  }

  /**
   * Resumes a stream of this session on a response `openSink` opens, from the event after
   * `lastEventId`. Opens nothing and answers `unknown` when the id is unknown (never issued,
   * evicted, or another session's), or `conflict` when it is the standalone stream's and a response
   * already receives that stream (a session has one standalone stream at a time).
   */
  resume(lastEventId: string, openSink: () => SseResponse): 'resumed' | 'unknown' | 'conflict' {
    const replay = this.store?.replayAfter(lastEventId);
    if (!replay || !this.known.has(replay.streamId)) return 'unknown';
    const standalone = replay.streamId === this.standalone.id;
    if (standalone && this.standalone.attached) return 'conflict';
    const sink = openSink();
    const stream = standalone ? this.standalone : this.live.get(replay.streamId);
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
    clearTimeout(this.idleTimer);
    this.connection.close();
    this.standalone.finish();
    for (const stream of this.live.values()) stream.finish();
    this.live.clear();
    for (const streamId of this.known) this.store?.forget(streamId);
    this.hooks.closed(this);
  }

  private createStream(standalone: boolean): SessionStream {
    const stream = new SessionStream(`${this.id}.${this.nextStream++}`, this.store, standalone);
    this.known.add(stream.id);
    if (this.known.size > MAX_KNOWN_STREAMS) {
      const oldest = this.known.values().next().value;
      if (oldest !== undefined && oldest !== this.standalone.id && !this.live.has(oldest)) {
        this.known.delete(oldest);
        this.store?.forget(oldest);
      }
    }
    return stream;
  }

  private expireIfIdle(): void {
    if (this.idle) this.close();
    else this.idleTimer.refresh();
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
      if (!this.sessions.delete(session.id) || session.principalId === undefined) return;
      const count = (this.perPrincipal.get(session.principalId) ?? 1) - 1;
      if (count > 0) this.perPrincipal.set(session.principalId, count);
      else this.perPrincipal.delete(session.principalId);
    },
  };

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
    const id = randomBytes(32).toString('base64url');
    const session = new Session(
      id,
      connection,
      principalId,
      this.store,
      this.idleTimeoutMs,
      this.hooks,
    );
    this.sessions.set(id, session);
    if (principalId !== undefined)
      this.perPrincipal.set(principalId, (this.perPrincipal.get(principalId) ?? 0) + 1);
    relay.bind({
      write: (message) => session.standalone.write(message),
      closeStream: () => {
        if (session.resumable) session.standalone.detach();
      },
    });
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
