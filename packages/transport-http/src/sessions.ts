import { randomBytes } from 'node:crypto';
import type { Connection } from '@rondo/core';
import type { EventStore } from './eventStore.js';
import type { PeerRelay } from './peerRelay.js';
import { SessionStream } from './sessionStream.js';
import type { SseResponse } from './sse.js';

/** How many stream ids a session remembers for cleanup; older streams' events are forgotten early. */
const MAX_KNOWN_STREAMS = 1000;

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
    private readonly onClose: (session: Session) => void,
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

  /** Called when a POST stream wrote its last event. */
  streamFinished(stream: SessionStream): void {
    this.live.delete(stream.id);
  }

  /** Marks activity, postponing expiry. */
  touch(): void {
    this.idleTimer.refresh();
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
    this.onClose(this);
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
    const busy =
      this.connection.inFlight > 0 ||
      this.standalone.attached ||
      [...this.live.values()].some((stream) => stream.attached);
    if (busy) this.idleTimer.refresh();
    else this.close();
  }
}

/** The sessions of one handler. */
export class SessionRegistry {
  private readonly sessions = new Map<string, Session>();

  constructor(
    private readonly store: EventStore | undefined,
    private readonly idleTimeoutMs: number,
  ) {}

  /** Registers a connection that became stateful, under a fresh cryptographically random id. */
  create(connection: Connection, relay: PeerRelay, principalId: string | undefined): Session {
    // 32 random bytes in base64url: visible ASCII only, as the session id rules require.
    const id = randomBytes(32).toString('base64url');
    const session = new Session(
      id,
      connection,
      principalId,
      this.store,
      this.idleTimeoutMs,
      (ended) => this.sessions.delete(ended.id),
    );
    this.sessions.set(id, session);
    relay.bind((message) => session.standalone.write(message));
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
}
