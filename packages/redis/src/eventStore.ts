import type { AppendOptions, EventStore, ReplayedEvents, StoredEvent } from '@rondo/core';
import { serializeMessage, type JsonRpcMessage } from '@rondo/protocol';
import { luaScript, type RedisConnection } from './connection.js';
import { sessionOfStream, type Keys } from './keys.js';
import { ttl } from './sessionStore.js';
import { MESSAGE_FIELD, decodeEntries, eventIdOf, splitEventId } from './streamEntries.js';
import type { StreamFollower } from './streamFollower.js';

// One append in one round trip: the once-key (when given) is set first and an existing one stops
// the append; the entry goes in, then the oldest entries go until the stream is within its count
// and its bytes (counted beside it), the stream's expiry restarts, and the stream is named in its
// session's set so ending the session forgets it. The entry just added is never the one dropped: a
// process following the stream must still read it (it alone past the budget goes at the next
// append), and a Last-Event-ID before a dropped entry is unknown, so nothing goes silently.
// KEYS: stream, session's set of streams, byte count, [once-key]. ARGV: message, most events, most
// bytes, expiry ms, stream id, once-key ms.
const APPEND = luaScript(`
if KEYS[4] and not redis.call('SET', KEYS[4], '1', 'NX', 'PX', ARGV[6]) then
  return false
end
local id = redis.call('XADD', KEYS[1], '*', '${MESSAGE_FIELD}', ARGV[1])
local count = redis.call('XLEN', KEYS[1])
local bytes = redis.call('INCRBY', KEYS[3], string.len(ARGV[1]))
local maxCount, maxBytes = tonumber(ARGV[2]), tonumber(ARGV[3])
while count > 1 and (count > maxCount or bytes > maxBytes) do
  local oldest = redis.call('XRANGE', KEYS[1], '-', '+', 'COUNT', 1)[1]
  redis.call('XDEL', KEYS[1], oldest[1])
  bytes = redis.call('DECRBY', KEYS[3], string.len(oldest[2][2] or ''))
  count = count - 1
end
redis.call('PEXPIRE', KEYS[1], ARGV[4])
redis.call('PEXPIRE', KEYS[3], ARGV[4])
redis.call('SADD', KEYS[2], ARGV[5])
redis.call('PEXPIRE', KEYS[2], ARGV[4])
return id
`);

// KEYS: stream, session's set of streams, byte count. ARGV: stream id.
const FORGET = luaScript(`
redis.call('DEL', KEYS[1], KEYS[3])
redis.call('SREM', KEYS[2], ARGV[1])
return 1
`);

/** How long a once-key is kept: long enough for every process announcing a change to have tried. */
const ONCE_KEY_MS = 60_000;

/** How an event log in Redis is bounded. */
export interface EventLogLimits {
  /** Events kept per stream. */
  readonly maxEventsPerStream: number;
  /**
   * Bytes of events (their JSON) kept per stream, the oldest dropped first; the newest event is
   * kept even when it alone is larger, until the next one.
   */
  readonly maxEventBytesPerStream: number;
  /** How long a stream is kept after its last append. */
  readonly streamTtlMs: number;
}

/**
 * SSE event logs as Redis Streams, one per SSE stream (`<prefix>events:<stream id>`), each capped
 * and expiring after its last append. An event's id is `<stream id>:<entry id>`, so any process
 * finds the stream a `Last-Event-ID` names.
 */
export class RedisEventStore implements EventStore {
  constructor(
    private readonly connection: RedisConnection,
    private readonly keys: Keys,
    private readonly limits: EventLogLimits,
    private readonly follower: StreamFollower,
  ) {}

  async append(
    streamId: string,
    message: JsonRpcMessage | undefined,
    options: AppendOptions = {},
  ): Promise<string | undefined> {
    const keys = [
      this.keys.events(streamId),
      this.keys.sessionStreams(sessionOfStream(streamId)),
      this.keys.eventBytes(streamId),
    ];
    if (options.once !== undefined) keys.push(this.keys.once(streamId, options.once));
    const entryId = await this.connection.script<string | null>(APPEND, keys, [
      message === undefined ? '' : serializeMessage(message),
      this.limits.maxEventsPerStream,
      this.limits.maxEventBytesPerStream,
      ttl(this.limits.streamTtlMs),
      streamId,
      ONCE_KEY_MS,
    ]);
    return entryId === null ? undefined : eventIdOf(streamId, entryId);
  }

  async replayAfter(eventId: string): Promise<ReplayedEvents | undefined> {
    const split = splitEventId(eventId);
    if (split === undefined) return undefined;
    // From the event itself (inclusive), so one round trip also tells whether it is still kept.
    const reply = await this.connection.call([
      'XRANGE',
      this.keys.events(split.streamId),
      split.entryId,
      '+',
      'COUNT',
      String(this.limits.maxEventsPerStream * 2 + 1),
    ]);
    const entries = decodeEntries(reply, (entryId) => this.malformed(split.streamId, entryId));
    if (entries[0]?.entryId !== split.entryId) return undefined;
    const events: StoredEvent[] = entries.slice(1).map((entry) => ({
      id: eventIdOf(split.streamId, entry.entryId),
      message: entry.message,
    }));
    return { streamId: split.streamId, events };
  }

  async forget(streamId: string): Promise<void> {
    await this.connection.script(
      FORGET,
      [
        this.keys.events(streamId),
        this.keys.sessionStreams(sessionOfStream(streamId)),
        this.keys.eventBytes(streamId),
      ],
      [streamId],
    );
  }

  follow(
    streamId: string,
    afterEventId: string | undefined,
    onEvent: (event: StoredEvent) => void,
    onError?: (error: Error) => void,
  ): () => void {
    const split = afterEventId === undefined ? undefined : splitEventId(afterEventId);
    const after = split?.streamId === streamId ? split.entryId : undefined;
    return this.follower.follow(streamId, after, onEvent, onError);
  }

  private malformed(streamId: string, entryId: string): void {
    this.connection.report(`skipped a malformed event ${entryId} of stream ${streamId}`);
  }
}
