import type { UsedStateStore } from '@rondo/core';
import type { RedisConnection } from './connection.js';
import type { Keys } from './keys.js';

/**
 * The one-time requestStates accepted by any process of the endpoint: one key per state, set only
 * if absent (`SET … NX`), which expires with the state. Redis decides between two processes that
 * receive the same state at once: one of them sets the key, the other is refused.
 */
export class RedisUsedStateStore implements UsedStateStore {
  constructor(
    private readonly connection: RedisConnection,
    private readonly keys: Keys,
  ) {}

  async claim(id: string, expiresAt: number): Promise<boolean> {
    // A lifetime rather than a date: the processes' clocks, not Redis's, set the state's expiry.
    const ttlMs = Math.max(1, Math.ceil(expiresAt - Date.now()));
    const set = await this.connection.call<string | null>([
      'SET',
      this.keys.usedState(id),
      '1',
      'NX',
      'PX',
      String(ttlMs),
    ]);
    return set !== null;
  }
}
