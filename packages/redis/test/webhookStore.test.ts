import { describe, expect, it } from 'vitest';
import { describeWebhookStoreContract } from '@rondo/test-support/webhookStoreContract';
import { closeAll, openStates, redisCommand, useRedisServer } from './support/harness.js';

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

describe('what the Redis webhook store keeps, and for how long', () => {
  it('keeps a claim for its hold only, and a subscription’s record a minute past its expiry', async () => {
    const [state] = await openStates(redis().url, 1);
    try {
      const now = Date.now();
      expect(await state!.webhooks.claim('sub', 'evt_1', 5_000, now)).toBe(true);
      const claimTtl = Number(
        await redisCommand(redis().url, ['PTTL', `${state!.prefix}webhook-claim:sub:evt_1`]),
      );
      expect(claimTtl).toBeGreaterThan(0);
      expect(claimTtl).toBeLessThanOrEqual(5_000);
      const subscription = {
        id: 'a',
        principal: 'alice',
        name: 'test_event',
        arguments: {},
        url: 'https://hooks.example/a',
        secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
        expiresAt: now + 10_000,
      };
      await state!.webhooks.save(subscription, 10, now);
      const recordTtl = Number(
        await redisCommand(redis().url, ['PTTL', `${state!.prefix}webhook:a`]),
      );
      expect(recordTtl).toBeGreaterThan(60_000);
      expect(recordTtl).toBeLessThanOrEqual(70_000);
    } finally {
      await state!.close();
    }
  });
});
