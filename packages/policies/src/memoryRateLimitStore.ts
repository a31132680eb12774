import type { RateLimitStore, RateRule, RateVerdict } from '@rondo/core';
import { slideWindow, takeToken, type RateState } from './rateAlgorithms.js';

/** Options of {@link MemoryRateLimitStore}. */
export interface MemoryRateLimitStoreOptions {
  /** Counters kept at most (default 100,000); past it the least recently used is forgotten. */
  maxKeys?: number;
  /** The clock, for tests (default `Date.now`). */
  now?: () => number;
}

/**
 * Rate-limit counters in this process's memory: right for one process (each replica of several
 * would count alone; share `@rondo/redis`'s store instead). Bounded: at most `maxKeys` counters,
 * the least recently used dropped first (a dropped counter starts full again).
 */
export class MemoryRateLimitStore implements RateLimitStore {
  private readonly counters = new Map<string, RateState>();
  private readonly maxKeys: number;
  private readonly now: () => number;

  constructor(options: MemoryRateLimitStoreOptions = {}) {
    this.maxKeys = Math.max(1, options.maxKeys ?? 100_000);
    this.now = options.now ?? Date.now;
  }

  /** Counters held now. */
  get size(): number {
    return this.counters.size;
  }

  hit(key: string, rule: RateRule): RateVerdict {
    const previous = this.counters.get(key);
    const step = rule.algorithm === 'sliding-window' ? slideWindow : takeToken;
    const { state, verdict } = step(previous, rule, this.now());
    if (previous !== undefined) {
      // Moved to the end: the map's order is least recently used first.
      this.counters.delete(key);
    } else if (this.counters.size >= this.maxKeys) {
      const oldest = this.counters.keys().next().value;
      if (oldest !== undefined) this.counters.delete(oldest);
    }
    this.counters.set(key, state);
    return verdict;
  }
}
