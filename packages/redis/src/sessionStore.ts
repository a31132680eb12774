import { SharedStateError, streamKeyOf, type SessionRecord, type SessionStore } from '@rondo/core';
import { isPlainObject, type JsonObject } from '@rondo/protocol';
import { luaScript, type RedisConnection } from './connection.js';
import type { Keys } from './keys.js';

// Ends a session: its record, and every stream it appended to (named in its set of streams).
const DELETE_SESSION = luaScript(`
for _, streamId in ipairs(redis.call('SMEMBERS', KEYS[2])) do
  redis.call('DEL', ARGV[1] .. streamId, ARGV[2] .. streamId)
end
redis.call('DEL', KEYS[1], KEYS[2])
return 1
`);

/**
 * Legacy sessions in Redis: each record a JSON string under `<prefix>session:<id>` that expires
 * after the idle timeout; a load restarts that timeout in the same round trip (GETEX … PX).
 */
export class RedisSessionStore implements SessionStore {
  constructor(
    private readonly connection: RedisConnection,
    private readonly keys: Keys,
  ) {}

  async save(sessionId: string, record: SessionRecord, ttlMs: number): Promise<void> {
    const text = JSON.stringify({ principalId: record.principalId ?? null, state: record.state });
    await this.connection.call(['SET', this.keys.session(sessionId), text, 'PX', ttl(ttlMs)]);
  }

  async load(sessionId: string, ttlMs: number): Promise<SessionRecord | undefined> {
    const text = await this.connection.call<string | null>([
      'GETEX',
      this.keys.session(sessionId),
      'PX',
      ttl(ttlMs),
    ]);
    return text === null ? undefined : this.decode(sessionId, text);
  }

  async delete(sessionId: string): Promise<void> {
    await this.connection.script(
      DELETE_SESSION,
      // The streams of a session are filed under the key their ids carry, not the session id.
      [this.keys.session(sessionId), this.keys.sessionStreams(streamKeyOf(sessionId))],
      [this.keys.eventsPrefix, this.keys.eventBytesPrefix],
    );
  }

  private decode(sessionId: string, text: string): SessionRecord {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      value = undefined;
    }
    if (
      !isPlainObject(value) ||
      !isPlainObject(value.state) ||
      (value.principalId !== null && typeof value.principalId !== 'string')
    ) {
      throw new SharedStateError(
        `Redis at ${this.connection.where} holds a malformed record for session ${sessionId}`,
      );
    }
    return {
      principalId: value.principalId ?? undefined,
      state: value.state as JsonObject,
    };
  }
}

/** A TTL as Redis takes it: a whole number of milliseconds, at least 1. */
export function ttl(ms: number): string {
  return String(Math.max(1, Math.ceil(ms)));
}
