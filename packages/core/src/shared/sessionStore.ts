import type { JsonObject } from '@rondo/protocol';

/** What a shared store keeps of one session: enough for any process to rebuild it. */
export interface SessionRecord {
  /** The principal that opened the session; other principals cannot use it. */
  readonly principalId: string | undefined;
  /** The era's state of the session (`Connection.snapshot`), plain JSON. */
  readonly state: JsonObject;
}

/**
 * Where sessions live when several processes serve one endpoint: any process finds a session
 * another one created and rebuilds it for the request it received. Records expire after the idle
 * timeout unless they are loaded or saved again. Without one, sessions live in the process that
 * created them.
 */
export interface SessionStore {
  /** Stores a session's record (new, or replacing the last one), live for `ttlMs`. */
  save(sessionId: string, record: SessionRecord, ttlMs: number): Promise<void>;
  /** The session's record with its time to live restarted; `undefined` when unknown or expired. */
  load(sessionId: string, ttlMs: number): Promise<SessionRecord | undefined>;
  /** Ends a session everywhere (a DELETE, an eviction). */
  delete(sessionId: string): Promise<void>;
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
