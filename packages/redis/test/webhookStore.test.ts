import { describe, expect, it } from 'vitest';
import { describeWebhookStoreContract } from '@rondo/test-support/webhookStoreContract';
import { closeAll, openStates, useRedisServer } from './support/harness.js';

const redis = useRedisServer();

describeWebhookStoreContract('in Redis', async (count) => {
  const states = await openStates(redis().url, count);
  return { processes: states.map((state) => state.webhooks), close: () => closeAll(states) };
});

describe('webhook delivery claims in Redis', () => {
  it('grants one of many simultaneous claims of a delivery across processes', async () => {
    const states = await openStates(redis().url, 3);
    try {
      const now = Date.now();
      const claims = await Promise.all(
        states.flatMap((state) =>
          Array.from({ length: 10 }, () => state.webhooks.claim('sub', 'evt_1', 60_000, now)),
        ),
      );
      expect(claims.filter(Boolean)).toHaveLength(1);
    } finally {
      await closeAll(states);
    }
  });
});
