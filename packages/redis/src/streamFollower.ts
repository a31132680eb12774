import type { StoredEvent } from '@rondo/core';
import { luaScript, type RedisConnection } from './connection.js';
import type { Keys } from './keys.js';
import { compareEntryIds, decodeEntries, eventIdOf, streamsOfRead } from './streamEntries.js';

// The id of each stream's newest entry ('0-0' for a stream not there yet), for follows that start
// "after now". KEYS: the streams.
const LAST_IDS = luaScript(`
local ids = {}
for i, key in ipairs(KEYS) do
  local last = redis.call('XREVRANGE', key, '+', '-', 'COUNT', 1)
  ids[i] = last[1] and last[1][1] or '0-0'
end
return ids
`);

/** How the follower reads. */
export interface FollowerOptions {
  /** How long one blocking read waits for new entries before it is sent again. */
  readonly blockMs: number;
  /** Entries read per stream and read. */
  readonly batch: number;
  /** How long to wait before reading again after a failed read (Redis unreachable). */
  readonly retryMs: number;
}

interface Follow {
  readonly streamId: string;
  readonly key: string;
  /** The last entry delivered (or the one to start after); undefined until "now" is resolved. */
  cursor: string | undefined;
  readonly onEvent: (event: StoredEvent) => void;
  readonly onError: ((error: Error) => void) | undefined;
  /** Told of the current outage already. */
  failing: boolean;
}

/**
 * Follows any number of streams with one blocking connection: a single XREAD BLOCK names every
 * followed stream at its cursor, so a thousand followed streams cost one connection and one
 * waiting command. When the set of follows grows, the waiting read is cut short (CLIENT UNBLOCK)
 * and sent again with the new set. Each follow keeps its own cursor (the last entry it got), so
 * after an outage reading resumes where every follow stopped.
 */
export class StreamFollower {
  private readonly follows = new Set<Follow>();
  private running = false;
  /** The set of follows changed since the waiting read was sent. */
  private changed = false;
  /** The read being waited on, while there is one. */
  private waiting: Promise<unknown> | undefined;
  /** The reader's client id on its current connection (it changes with each reconnect). */
  private readerId: string | undefined;
  /** An unblock is on its way, so more changes in the meantime need no other. */
  private waking = false;
  /** A resolution of "now" is queued for the follows of this tick. */
  private resolveQueued = false;
  private closed = false;

  constructor(
    private readonly connection: RedisConnection,
    private readonly keys: Keys,
    private readonly options: FollowerOptions,
  ) {
    connection.reader.on('ready', () => {
      this.readerId = undefined;
    });
  }

  /** Starts following a stream after `afterEntryId` (after now, when undefined). */
  follow(
    streamId: string,
    afterEntryId: string | undefined,
    onEvent: (event: StoredEvent) => void,
    onError?: (error: Error) => void,
  ): () => void {
    const follow: Follow = {
      streamId,
      key: this.keys.events(streamId),
      cursor: afterEntryId,
      onEvent,
      onError,
      failing: false,
    };
    this.follows.add(follow);
    this.changed = true;
    if (afterEntryId === undefined) this.resolveSoon();
    if (this.running) this.wake();
    else void this.run();
    return () => {
      this.follows.delete(follow);
    };
  }

  /** Stops reading; the reader client is closed by the connection. */
  close(): void {
    this.closed = true;
    this.follows.clear();
  }

  private async run(): Promise<void> {
    this.running = true;
    try {
      while (this.follows.size > 0 && !this.closed) await this.readOnce();
    } finally {
      this.running = false;
    }
  }

  /** One read of every followed stream, or, when it fails, one wait before the next. */
  private async readOnce(): Promise<void> {
    try {
      // A follow made while "now" was being resolved is resolved too before the read names it.
      while ([...this.follows].some((follow) => follow.cursor === undefined)) {
        await this.resolveNow();
      }
      this.readerId ??= String(
        await this.connection.call(['CLIENT', 'ID'], this.connection.reader),
      );
      const streams = this.cursorsByStream();
      if (streams.size === 0) return;
      this.changed = false;
      const args = ['XREAD', 'COUNT', String(this.options.batch), 'BLOCK'];
      args.push(String(this.options.blockMs), 'STREAMS', ...streams.keys(), ...streams.values());
      this.waiting = this.connection.callBlocking(args, this.options.blockMs);
      const reply = await this.waiting;
      this.waiting = undefined;
      this.deliver(reply);
    } catch (error) {
      this.waiting = undefined;
      if (this.closed) return;
      this.fail(error instanceof Error ? error : new Error(String(error)));
      await new Promise((resolve) => setTimeout(resolve, this.options.retryMs));
    }
  }

  /**
   * Resolves "now" for new follows at once, without waiting for the read loop to come round, so
   * "now" is as close as a round trip to the moment of the call. Follows made in one tick share
   * one script; should it fail, the loop resolves them before its next read.
   */
  private resolveSoon(): void {
    if (this.resolveQueued) return;
    this.resolveQueued = true;
    queueMicrotask(() => {
      this.resolveQueued = false;
      this.resolveNow().catch(() => {
        // Redis is unreachable: the loop's read fails too, and it resolves them once back.
      });
    });
  }

  /** Gives each follow that starts "after now" the id of its stream's newest entry. */
  private async resolveNow(): Promise<void> {
    const pending = [...this.follows].filter((follow) => follow.cursor === undefined);
    if (pending.length === 0) return;
    const ids = await this.connection.script<string[]>(
      LAST_IDS,
      pending.map((follow) => follow.key),
      [],
    );
    pending.forEach((follow, index) => {
      follow.cursor ??= ids[index] ?? '0-0';
    });
  }

  /** Each followed stream at the earliest cursor of its follows. */
  private cursorsByStream(): Map<string, string> {
    const streams = new Map<string, string>();
    for (const follow of this.follows) {
      const cursor = follow.cursor;
      if (cursor === undefined) continue;
      const known = streams.get(follow.key);
      if (known === undefined || compareEntryIds(cursor, known) < 0) {
        streams.set(follow.key, cursor);
      }
    }
    return streams;
  }

  /** Hands each follow the entries past its cursor, in order. */
  private deliver(reply: unknown): void {
    for (const follow of this.follows) follow.failing = false;
    for (const [key, entriesReply] of streamsOfRead(reply)) {
      const entries = decodeEntries(entriesReply, (entryId) =>
        this.connection.report(`skipped a malformed event ${entryId} of ${key}`),
      );
      for (const follow of [...this.follows]) {
        // A follow still resolving "now" reads from there on its next read, not from this one.
        if (follow.key !== key || follow.cursor === undefined) continue;
        for (const entry of entries) {
          if (!this.follows.has(follow)) break;
          if (compareEntryIds(entry.entryId, follow.cursor) <= 0) continue;
          follow.cursor = entry.entryId;
          const event = { id: eventIdOf(follow.streamId, entry.entryId), message: entry.message };
          this.connection.safely(() => follow.onEvent(event));
        }
      }
    }
  }

  /** Tells each follow of a failed read, once per outage. */
  private fail(error: Error): void {
    for (const follow of this.follows) {
      if (follow.failing) continue;
      follow.failing = true;
      if (follow.onError === undefined) {
        this.connection.report(`following ${follow.streamId} failed: ${error.message}`);
      } else {
        const onError = follow.onError;
        this.connection.safely(() => onError(error));
      }
    }
  }

  /**
   * Cuts the waiting read short so the next one names the new set of follows. An unblock that
   * reaches Redis before the read does is tried again a few times; the read's own block time
   * bounds the delay past that.
   */
  private wake(): void {
    const waiting = this.waiting;
    const readerId = this.readerId;
    if (waiting === undefined || readerId === undefined || this.waking) return;
    this.waking = true;
    const attempt = async (tries: number): Promise<void> => {
      if (!this.changed || this.waiting !== waiting || this.closed) return;
      const unblocked = await this.connection.call<number>(['CLIENT', 'UNBLOCK', readerId]);
      if (unblocked === 0 && tries > 1) {
        await new Promise((resolve) => setTimeout(resolve, 5));
        await attempt(tries - 1);
      }
    };
    queueMicrotask(() => {
      attempt(10)
        .catch(() => {
          // Redis is unreachable: the read fails by itself and the next one names every follow.
        })
        .finally(() => {
          this.waking = false;
        });
    });
  }
}
