import type { SharedState, SharedStateError } from '@rondo/core';
import { TASK_LIMIT_DEFAULTS, type SharedTaskState } from '@rondo/tasks';
import type { SharedEventState } from '@rondo/events';
import { RedisChangeBus, RedisSessionRelay } from './channels.js';
import { RedisConnection } from './connection.js';
import { RedisEventStore } from './eventStore.js';
import { RedisOccurrenceLog } from './occurrenceLog.js';
import { Keys } from './keys.js';
import { RedisSessionStore } from './sessionStore.js';
import { StreamFollower } from './streamFollower.js';
import { RedisTaskStore } from './taskStore.js';
import { RedisUsedStateStore } from './usedStates.js';
import { RedisWebhookStore } from './webhookStore.js';
import { RedisRateLimitStore, RedisResponseCache } from './policyStores.js';

/** The default bytes of events kept per stream: the memory event store's. */
const REDIS_EVENT_BYTES_PER_STREAM = 8 * 1024 * 1024;

/** Where the shared state lives and how it is bounded. */
export interface RedisStateOptions {
  /** The Redis server: `redis://[[user]:password@]host[:port][/db]` (`rediss://` for TLS). */
  url: string;
  /** Put before every key and channel, so several endpoints can share one Redis (default `rondo:`). */
  prefix?: string;
  /** Events kept per SSE stream (default 1,000), the oldest dropped first. */
  maxEventsPerStream?: number;
  /**
   * Bytes of events (their JSON) kept per SSE stream (default 8 MiB, as the memory store's), the
   * oldest dropped first; a `Last-Event-ID` before a dropped event gets 400. The newest event stays
   * even when it alone is larger, until the next event of its stream.
   */
  maxEventBytesPerStream?: number;
  /** How long an SSE stream's events are kept after its last event, in ms (default 1 hour). */
  streamTtlMs?: number;
  /** The longest any task is kept, in ms, `ttlMs: null` tasks included (default 24 hours). */
  maxTaskTtlMs?: number;
  /**
   * Tasks one owner (a principal, or an anonymous client's address over HTTP) may have that are
   * neither finished nor expired (default 1,000, 0 for no cap); past it that owner's new task is refused.
   */
  maxTasksPerOwner?: number;
  /** The largest result, error or set of input requests one task change stores, in bytes (default 4 MiB). */
  maxTaskResultBytes?: number;
  /** How long a command may wait for Redis's answer before it fails, in ms (default 2,000). */
  commandTimeoutMs?: number;
  /** How long connecting at start may take before `createRedisState` fails, in ms (default 5,000). */
  connectTimeoutMs?: number;
  /**
   * Hears failures no caller waits for: a lost connection (once per outage), a message on a channel
   * that is not one of ours, a listener that threw. Default: a warning on the console.
   */
  onError?: (error: SharedStateError) => void;
}

/** What the state has sent to Redis. */
export interface RedisStats {
  /** Commands sent since the state was created; each is one round trip. */
  commands: number;
}

/**
 * {@link SharedState} on Redis, with its tasks (which `tasks()` of `@rondo/tasks` uses when given no
 * store), its event occurrences and webhook subscriptions (which `events()` of `@rondo/events`
 * uses when given none), the process's id on the channels and its command count.
 */
export interface RedisState extends SharedState, SharedTaskState, SharedEventState {
  /** Rate-limit counters every replica shares (`rateLimit({ store: state.rateLimits })`). */
  readonly rateLimits: RedisRateLimitStore;
  /** A response cache every replica shares (`responseCache({ store: state.responses })`). */
  readonly responses: RedisResponseCache;
  /**
   * The Events extension's replay buffers and live feed every replica shares (an `events()` the
   * server uses keeps its occurrences here): a cursor taken on one replica resumes on another.
   */
  readonly occurrences: RedisOccurrenceLog;
  /**
   * Webhook subscriptions and delivery claims every replica shares (an `events()` the server uses
   * keeps them here): each delivery is made once.
   */
  readonly webhooks: RedisWebhookStore;
  /** This process's id on the channels (the relay ignores messages carrying it). */
  readonly processId: string;
  /** Commands sent so far, to count Redis round trips per request. */
  stats(): RedisStats;
}

/**
 * Connects to Redis and returns the state the processes of one endpoint share: legacy sessions,
 * SSE event logs (Redis Streams), change notifications and relayed messages (pub/sub), tasks, and
 * the one-time requestStates accepted (`requestState.oneTime`).
 * Pass it to `createServer({ shared })` in every process. Rejects with a `SharedStateError` when
 * Redis cannot be reached within `connectTimeoutMs`; once started, an operation while Redis is
 * unreachable fails at once with a `SharedStateError`, and the connections come back by themselves.
 */
export async function createRedisState(options: RedisStateOptions): Promise<RedisState> {
  const connection = await RedisConnection.open({
    url: options.url,
    commandTimeoutMs: options.commandTimeoutMs ?? 2_000,
    connectTimeoutMs: options.connectTimeoutMs ?? 5_000,
    onError: options.onError ?? ((error) => console.warn(`@rondo/redis: ${error.message}`)),
  });
  const keys = new Keys(options.prefix ?? 'rondo:');
  try {
    await connection.subscribe([
      keys.changesChannel,
      keys.relayChannel,
      keys.tasksChannel,
      keys.occurrencesChannel,
    ]);
  } catch (error) {
    await connection.close();
    throw error;
  }
  const follower = new StreamFollower(connection, keys, {
    blockMs: 5_000,
    batch: 100,
    retryMs: 200,
  });
  const limits = {
    maxEventsPerStream: options.maxEventsPerStream ?? 1_000,
    maxEventBytesPerStream: options.maxEventBytesPerStream ?? REDIS_EVENT_BYTES_PER_STREAM,
    streamTtlMs: options.streamTtlMs ?? 3_600_000,
  };
  return {
    processId: connection.processId,
    sessions: new RedisSessionStore(connection, keys),
    events: new RedisEventStore(connection, keys, limits, follower),
    changes: new RedisChangeBus(connection, keys.changesChannel),
    relay: new RedisSessionRelay(connection, keys.relayChannel),
    tasks: new RedisTaskStore(connection, keys, {
      maxTaskTtlMs: options.maxTaskTtlMs ?? 86_400_000,
      maxTasksPerOwner: options.maxTasksPerOwner ?? TASK_LIMIT_DEFAULTS.maxTasksPerOwner,
      maxTaskResultBytes: options.maxTaskResultBytes ?? TASK_LIMIT_DEFAULTS.maxTaskResultBytes,
    }),
    usedStates: new RedisUsedStateStore(connection, keys),
    rateLimits: new RedisRateLimitStore(connection, keys),
    responses: new RedisResponseCache(connection, keys),
    occurrences: new RedisOccurrenceLog(connection, keys),
    webhooks: new RedisWebhookStore(connection, keys),
    stats: () => ({ commands: connection.commandCount }),
    close: async () => {
      follower.close();
      await connection.close();
    },
  };
}
