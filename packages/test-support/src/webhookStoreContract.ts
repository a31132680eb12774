import { describe, expect, it } from 'vitest';
// Types only, through the repository root: @rondo/events lists this package, so depending on it
// would make a cycle.
import type { WebhookStore, WebhookSubscription } from '@rondo/events';
import { withOpened, type OpenedSeam } from './seamContract.js';

const NOW = 1_000_000;

function subscription(
  id: string,
  overrides: Partial<WebhookSubscription> = {},
): WebhookSubscription {
  return {
    id,
    principal: 'alice',
    name: 'test_event',
    arguments: {},
    url: `https://hooks.example/${id}`,
    secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    expiresAt: NOW + 60_000,
    ...overrides,
  };
}

/**
 * The rules every {@link WebhookStore} (the Events extension's webhook subscriptions and delivery
 * claims) keeps, run against one implementation: `open(count)` gives the store as `count`
 * processes of one endpoint see it (for a store in memory, the one store they share).
 */
export function describeWebhookStoreContract(
  name: string,
  open: (count: number) => Promise<OpenedSeam<WebhookStore>>,
): void {
  describe(`the webhook store contract: ${name}`, () => {
    it(
      'creates, refreshes (the same id), reads, lists by type and removes subscriptions',
      withOpened(open, 2, async ([one, two]) => {
        expect(await one!.save(subscription('a'), 10, NOW)).toEqual({ saved: true, created: true });
        await one!.save(subscription('b', { name: 'other' }), 10, NOW);
        const refreshed = subscription('a', { expiresAt: NOW + 120_000, secret: 'whsec_new' });
        expect(await two!.save(refreshed, 10, NOW)).toEqual({ saved: true, created: false });
        expect(await one!.get('a', NOW)).toEqual(refreshed);
        expect((await one!.ofType('test_event', NOW)).map((held) => held.id)).toEqual(['a']);
        expect(await two!.remove('a')).toBe(true);
        expect(await two!.remove('a')).toBe(false);
        expect(await one!.get('a', NOW)).toBeUndefined();
        expect(await one!.ofType('test_event', NOW)).toEqual([]);
      }),
    );

    it(
      'forgets a subscription at its expiry',
      withOpened(open, 1, async ([store]) => {
        await store!.save(subscription('a', { expiresAt: NOW + 10 }), 10, NOW);
        expect(await store!.get('a', NOW + 9)).toBeDefined();
        expect(await store!.get('a', NOW + 10)).toBeUndefined();
        expect(await store!.ofType('test_event', NOW + 10)).toEqual([]);
      }),
    );

    it(
      'refuses a principal a new subscription past the cap, but not a refresh or another principal',
      withOpened(open, 2, async ([one, two]) => {
        await one!.save(subscription('a'), 2, NOW);
        await two!.save(subscription('b'), 2, NOW);
        expect(await one!.save(subscription('c'), 2, NOW)).toEqual({ saved: false, held: 2 });
        expect(await two!.save(subscription('a'), 2, NOW)).toEqual({ saved: true, created: false });
        expect(await one!.save(subscription('d', { principal: 'bob' }), 2, NOW)).toMatchObject({
          saved: true,
        });
        // An expired subscription no longer counts.
        await one!.save(subscription('b', { expiresAt: NOW + 1 }), 2, NOW);
        expect(await two!.save(subscription('c'), 2, NOW + 5)).toMatchObject({ saved: true });
      }),
    );

    it(
      'grants a delivery claim once across processes until it is released by time',
      withOpened(open, 2, async ([one, two]) => {
        expect(await one!.claim('a', 'evt_1', 1_000, NOW)).toBe(true);
        expect(await two!.claim('a', 'evt_1', 1_000, NOW + 1)).toBe(false);
        expect(await two!.claim('b', 'evt_1', 1_000, NOW + 1)).toBe(true);
        expect(await two!.claim('a', 'evt_2', 1_000, NOW + 1)).toBe(true);
        expect(await one!.claim('a', 'evt_1', 1_000, NOW + 1_000)).toBe(true);
      }),
    );
  });
}
