import { describe, expect, it } from 'vitest';
import { MemoryWebhookStore } from '../src/index.js';
import { MAX_MEMORY_CLAIMS } from '../src/webhookStore.js';
import { describeWebhookStoreContract } from '@rondo/test-support/webhookStoreContract';

describeWebhookStoreContract('in memory', async (count) => {
  const store = new MemoryWebhookStore();
  return { processes: Array.from({ length: count }, () => store), close: async () => {} };
});

describe('MemoryWebhookStore', () => {
  it('remembers at most MAX_MEMORY_CLAIMS delivery claims, forgetting the oldest', () => {
    const store = new MemoryWebhookStore();
    const hold = 60_000;
    for (let n = 0; n < MAX_MEMORY_CLAIMS; n += 1) store.claim('sub', `evt_${n}`, hold, 0);
    expect(store.claim('sub', 'evt_0', hold, 1)).toBe(false);
    expect(store.claim('sub', 'evt_new', hold, 1)).toBe(true);
    // The new claim pushed the oldest out: claiming it again succeeds; the next oldest stays.
    expect(store.claim('sub', 'evt_1', hold, 2)).toBe(false);
    expect(store.claim('sub', 'evt_0', hold, 2)).toBe(true);
    expect(MAX_MEMORY_CLAIMS).toBe(10_000);
  });
});
