import type { JsonObject } from '@rondo/protocol';
import type { Awaitable } from './eventStore.js';

/** What a shared store keeps of one session: enough for any process to rebuild it. */
export interface SessionRecord {
  /** The principal that opened the session; other principals cannot use it. */
  readonly principalId: string | undefined;
  /** The era's state of the session (`Connection.snapshot`), plain JSON. */
  readonly state: JsonObject;
}

/**
 * Where the records of sessions live: any process reading the store finds a session another one
 * created and rebuilds it for the request it received. Records expire after the idle timeout
 * unless they are loaded or saved again. A store in memory answers at once (the transport's hot
 * path then has no await); a shared store (Redis) answers asynchronously.
 */
export interface SessionStore {
  /** Stores a session's record (new, or replacing the last one), live for `ttlMs`. */
  save(sessionId: string, record: SessionRecord, ttlMs: number): Awaitable<void>;
  /** The session's record with its time to live restarted; `undefined` when unknown or expired. */
  load(sessionId: string, ttlMs: number): Awaitable<SessionRecord | undefined>;
  /** Ends a session everywhere (a DELETE, an eviction). */
  delete(sessionId: string): Awaitable<void>;
  /**
   * Who reads the records. `'process'`: only this process (the memory default), so a session ends
   * with this process's copy of it (evicted, idle or closed), its events with it, and its stream
   * ids need no part naming the process. `'endpoint'` (when unset): every process serving the
   * endpoint, so a process dropping its copy leaves the session to the others until its TTL runs out.
   */
  readonly scope?: 'process' | 'endpoint';
}

/** How many characters of a session id its stream ids carry (66 of its 256 random bits). */
const STREAM_KEY_LENGTH = 11;

/**
 * The part of a session id that names its SSE streams (stream ids are `<key>.<n>`, and event ids
 * extend them), the same in every process serving the session. Only a prefix: a `Last-Event-ID`
 * that leaks (a log, a proxy) does not give away the session id (the other 32 characters, 192
 * random bits, stay secret), so it is no session credential; it is still enough to tell one
 * session's streams from another's.
 */
export function streamKeyOf(sessionId: string): string {
  return sessionId.slice(0, STREAM_KEY_LENGTH);
}
