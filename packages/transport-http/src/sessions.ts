import type {
  Awaitable,
  Connection,
  Endpoint,
  EventStore,
  Exchange,
  SessionRecord,
} from '@rondo/core';
import type { JsonObject } from '@rondo/protocol';
import { LazyAbortController, randomToken } from '@rondo/core/internal';
import { PeerRelay } from './peerRelay.js';
import {
  SESSION_ENDED,
  Session,
  soloScope,
  type SessionHooks,
  type SessionSharing,
} from './session.js';
import { unrefTimer, type TimerHandle } from './timers.js';

export { Session } from './session.js';

/** How many sessions a registry keeps live. */
export interface SessionLimits {
  maxSessions: number;
  /** For the sessions of one client (its principal, or its address). */
  maxSessionsPerClient: number;
}

/**
 * The sessions of one handler, in least recently used order, and each client's among them. At a
 * client's cap, that client's least recently used idle session is closed to make room. At the
 * total cap the clients holding more than their share (the cap over the clients holding sessions)
 * give up theirs first, the biggest first, so a client flooding the server with sessions evicts
 * its own, never a well-behaved client's; only when no client holds more than its share does the
 * least recently used idle session go, whoever's. When nothing can be evicted, no session is
 * created.
 */
export class SessionRegistry {
  /** Insertion order is use order: a touched session moves to the end. */
  private readonly sessions = new Map<string, Session>();
  /** The sessions of each client, in use order as well; a client without sessions has no entry. */
  private readonly perClient = new Map<string, Map<string, Session>>();
  /** Sessions being rebuilt from the session store, so concurrent requests rebuild one. */
  private readonly restoring = new Map<string, Promise<Session | undefined>>();
  private readonly stopRelay: () => void;
  private readonly hooks: SessionHooks = {
    storeFailed: (error) => this.onError(error),
    used: (session) => {
      if (!this.sessions.delete(session.id)) return;
      this.sessions.set(session.id, session);
      const own = this.perClient.get(session.client);
      if (own?.delete(session.id)) own.set(session.id, session);
    },
    closed: (session) => {
      if (!this.sessions.delete(session.id)) return;
      if (this.sessions.size === 0) this.stopSweeping();
      const own = this.perClient.get(session.client);
      own?.delete(session.id);
      if (own?.size === 0) this.perClient.delete(session.client);
    },
  };

  /** Runs while sessions are live: one timer for all of them, rather than one each. */
  private sweeper: TimerHandle | undefined;

  constructor(
    private readonly store: EventStore | undefined,
    private readonly idleTimeoutMs: number,
    private readonly limits: SessionLimits,
    private readonly onError: (error: unknown) => void = () => undefined,
    /** The session store and relay, and the endpoint that rebuilds a session from its record. */
    private readonly sharing: SessionSharing & { readonly endpoint: Endpoint },
  ) {
    this.stopRelay = sharing.relay.receive((id, message) => {
      const session = this.sessions.get(id);
      if (!session) return;
      if ('method' in message && message.method === SESSION_ENDED) session.close();
      else session.connection.receive(message, relayedExchange());
    });
  }

  /**
   * Registers a connection that became stateful, under a fresh cryptographically random id.
   * Undefined, registering nothing, when a cap is reached and no session can be evicted.
   */
  create(
    connection: Connection,
    relay: PeerRelay,
    principalId: string | undefined,
    /** Who opens it (see `clientOf`), for the per-client cap and fair eviction. */
    client: string,
  ): Session | undefined {
    if (!this.makeRoom(client)) return undefined;
    // 32 random bytes in base64url: visible ASCII only, as the session id rules require.
    const id = randomToken(32);
    const session = new Session(
      id,
      connection,
      principalId,
      client,
      this.store,
      this.hooks,
      this.sharing,
    );
    if (soloScope(this.sharing)) this.recordNew(session);
    return this.register(session, relay);
  }

  /**
   * The session `id` names in the session store, its state refreshed from there; rebuilt in this
   * process when it has no copy yet. Undefined when the store knows no such session (or its record
   * cannot be served here), or when this process has no room for another session. At once when the
   * store answers at once (the memory default: no await on the hot path); else rejects with the
   * store's failure (a `SharedStateError`).
   */
  fetch(id: string, client: string): Awaitable<Session | undefined> {
    const here = this.sessions.has(id);
    // A copy here is refreshed by a load of this request's own: one sent before another replica
    // saved a change the client has seen must not stand for it. Only rebuilds are shared.
    const pending = here ? undefined : this.restoring.get(id);
    if (pending) return pending;
    const loaded = this.sharing.sessions.load(id, this.sharing.ttlMs);
    if (!(loaded instanceof Promise)) return this.found(id, client, loaded);
    const work = loaded.then((record) => this.found(id, client, record));
    if (here) return work;
    const rebuilding = work.finally(() => this.restoring.delete(id));
    this.restoring.set(id, rebuilding);
    return rebuilding;
  }

  /** The live session with this id. */
  get(id: string): Session | undefined {
    return this.sessions.get(id);
  }

  /** How many sessions are live. */
  get size(): number {
    return this.sessions.size;
  }

  /** Closes every session (this process's copies, when other processes serve them). */
  closeAll(): void {
    this.stopRelay();
    for (const session of [...this.sessions.values()]) session.close();
  }

  /** The session of a record the store gave (this process's copy, refreshed, or a rebuilt one). */
  private found(
    id: string,
    client: string,
    record: SessionRecord | undefined,
  ): Session | undefined {
    const sharing = this.sharing;
    const local = this.sessions.get(id);
    if (!record) {
      local?.close();
      return undefined;
    }
    // The very record this copy saved or loaded last (a store in memory gives it back) is no news.
    if (local?.savedRecord === record) return local;
    const text = JSON.stringify(record.state);
    if (local) {
      if (local.savedState !== text) local.connection.refresh?.(record.state);
      local.savedState = text;
      local.savedRecord = record;
      return local;
    }
    // A principal's session counts as the principal's; an anonymous one as the asking address's.
    const owner = record.principalId === undefined ? client : `principal:${record.principalId}`;
    if (!this.makeRoom(owner)) return undefined;
    const relay = new PeerRelay();
    const connection = restoreConnection(sharing.endpoint, relay, record.state);
    if (!connection) return undefined;
    const session = new Session(
      id,
      connection,
      record.principalId,
      owner,
      this.store,
      this.hooks,
      sharing,
    );
    session.savedState = text;
    session.savedRecord = record;
    return this.register(session, relay);
  }

  /**
   * Saves the first record of a session the store keeps for this process alone: the record stands
   * for the session (its expiry, its end) from its first request, whatever its connection snapshots.
   */
  private recordNew(session: Session): void {
    const record: SessionRecord = { principalId: session.principalId, state: {} };
    session.savedRecord = record;
    session.savedState = '{}';
    const saved = this.sharing.sessions.save(session.id, record, this.sharing.ttlMs);
    if (saved instanceof Promise) saved.catch(this.onError);
  }

  private register(session: Session, relay: PeerRelay): Session {
    this.sessions.set(session.id, session);
    let own = this.perClient.get(session.client);
    if (!own) this.perClient.set(session.client, (own = new Map<string, Session>()));
    own.set(session.id, session);
    relay.bind(session);
    this.startSweeping();
    return session;
  }

  /**
   * Closes the copies unused for the idle timeout that are idle (the store expires a session its
   * processes stop loading; with other processes the session lives on there while they use it). A
   * busy copy (a request in flight, a response receiving a stream) counts as used now and loads its
   * record again at half its lifetime. The map is in use order, so the walk stops at the first
   * session used recently.
   */
  private sweep(): void {
    const { sessions, ttlMs } = this.sharing;
    const now = Date.now();
    for (const session of [...this.sessions.values()]) {
      const unused = now - session.lastUsed;
      if (unused < this.idleTimeoutMs / 2) break;
      if (!session.idle) {
        session.touch();
        const loaded = sessions.load(session.id, ttlMs);
        if (loaded instanceof Promise) loaded.catch(this.onError);
      } else if (unused >= this.idleTimeoutMs) {
        session.close();
      }
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

  /** Brings the counts below the caps a new session of `client` would reach. */
  private makeRoom(client: string): boolean {
    const own = this.perClient.get(client);
    if ((own?.size ?? 0) >= this.limits.maxSessionsPerClient && !evictIdle(own?.values() ?? []))
      return false;
    return this.sessions.size < this.limits.maxSessions || this.evictFairly();
  }

  /**
   * Makes room at the total cap: the idle sessions of the clients above their share go first, the
   * biggest holder first; while any client is above its share, nobody else's session goes.
   */
  private evictFairly(): boolean {
    const share = this.limits.maxSessions / Math.max(1, this.perClient.size);
    const above = [...this.perClient.values()]
      .filter((own) => own.size > share)
      .sort((a, b) => b.size - a.size);
    if (above.length > 0) return above.some((own) => evictIdle(own.values()));
    return evictIdle(this.sessions.values());
  }
}

/** Closes the least recently used idle session of `sessions` (in use order); false when none is. */
function evictIdle(sessions: Iterable<Session>): boolean {
  for (const session of sessions) {
    if (session.idle) {
      session.close();
      return true;
    }
  }
  return false;
}

/** A connection rebuilt from a stored snapshot; undefined when the snapshot cannot be served here. */
function restoreConnection(
  endpoint: Endpoint,
  relay: PeerRelay,
  snapshot: JsonObject,
): Connection | undefined {
  try {
    const connection = endpoint.restore?.(relay, snapshot);
    if (connection?.stateful) return connection;
    connection?.close();
  } catch {
    // A record another version wrote, or a damaged one: the session is unknown here.
  }
  return undefined;
}

/** The exchange of a message another process relayed: nothing answers it here, nor aborts it. */
function relayedExchange(): Exchange {
  return { send: () => undefined, end: () => undefined, cancellation: new LazyAbortController() };
}
