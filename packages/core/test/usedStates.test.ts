import { describe, expect, it } from 'vitest';
import { McpError } from '@rondo/protocol';
import { DEFAULT_MAX_USED_STATES, MemoryUsedStateStore } from '../src/index.js';

describe('MemoryUsedStateStore', () => {
  it('claims an id once until it expires', async () => {
    let now = 1_000;
    const store = new MemoryUsedStateStore(DEFAULT_MAX_USED_STATES, () => now);
    expect(await store.claim('a', 2_000)).toBe(true);
    expect(await store.claim('a', 2_000)).toBe(false);
    now = 2_001;
    expect(await store.claim('a', 3_000)).toBe(true);
  });

  it('refuses a claim when full of live ids, and makes room once some expired', async () => {
    let now = 0;
    const store = new MemoryUsedStateStore(2, () => now);
    await store.claim('a', 500);
    await store.claim('b', 10_000);
    const refused = await store.claim('c', 10_000).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(McpError);
    expect(refused).toMatchObject({ code: -32603, data: { limit: 'maxUsedStates' } });
    now = 2_000; // 'a' expired, and the last look for expired ids is a second old
    expect(await store.claim('c', 10_000)).toBe(true);
    expect(await store.claim('b', 10_000)).toBe(false);
  });
});
