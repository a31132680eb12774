import type { Awaitable } from '../contracts/eventStore.js';

/**
 * The stores behind the built-in policies (`@rondo/policies`): counters for rate limits and a
 * response cache. One process keeps them in memory; processes behind one balancer share them
 * (`@rondo/redis`), so a limit of N holds across the replicas instead of N per replica.
 */

/** How calls are counted against one limit. */
export interface RateRule {
  /**
   * `token-bucket`: `limit` tokens refilled evenly over `windowMs` (bursts up to `limit`);
   * `sliding-window`: at most `limit` calls in any `windowMs`.
   */
  readonly algorithm: 'token-bucket' | 'sliding-window';
  readonly limit: number;
  readonly windowMs: number;
}

/** A rate limit's answer to one call. */
export interface RateVerdict {
  readonly allowed: boolean;
  /** When refused: milliseconds until a call would be admitted (at least 1); 0 when allowed. */
  readonly retryAfterMs: number;
}

/** Counts calls per key; each `hit` is atomic, one round trip on a shared store. */
export interface RateLimitStore {
  /** Counts one call of `key` under `rule` when it fits, and says whether it did. */
  hit(key: string, rule: RateRule): Awaitable<RateVerdict>;
}

/** Cached answers by key, each in one group that is dropped at once when what it caches changes. */
export interface ResponseCacheStore {
  /** The value stored under `group` and `key`, unless it expired or its group was dropped. */
  get(group: string, key: string): Awaitable<string | undefined>;
  /** Stores a value for `ttlMs`. */
  set(group: string, key: string, value: string, ttlMs: number): Awaitable<void>;
  /** Drops every value of a group (a resource's reads, a list's pages). */
  drop(group: string): Awaitable<void>;
}
