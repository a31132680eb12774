import type { RateLimitStore, RateRule } from '@rondo/core';

/**
 * The `requestState`s a rate limit has seen retries bring, kept in the limit's own store (so a
 * shared store remembers them across replicas): a counter per state that admits one sighting
 * within `memoryMs`. Keys hold a digest of the state, never the state itself, in printable hex.
 */
export class AnsweredStates {
  private readonly rule: RateRule;

  constructor(
    private readonly store: RateLimitStore,
    private readonly name: string,
    memoryMs: number,
  ) {
    this.rule = { algorithm: 'sliding-window', limit: 1, windowMs: memoryMs };
  }

  /** True the first time `state` is seen within the memory; false for a state brought back. */
  async firstSight(state: string): Promise<boolean> {
    const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(state));
    const hex = Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0'));
    const key = `${this.name}|state:${hex.join('')}`;
    const verdict = await this.store.hit(key, this.rule);
    return verdict.allowed;
  }
}
