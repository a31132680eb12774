import { createServer } from 'node:https';
import { afterEach, describe, expect, it } from 'vitest';
import { generateWebhookSecret } from '@rondo/client';
import { httpsReceiver, selfSignedCertificate } from '@rondo/test-support/httpsReceiver';
import { postCallback } from '../src/callbackPost.js';
import { DeliveryQueue, type PendingDelivery } from '../src/deliveryQueue.js';
import { DEFAULT_WEBHOOK_LIMITS } from '../src/index.js';
import { refusal } from '@rondo/test-support/refusal';
import { startWebhookServer } from './webhookSupport.js';

// Issue 42, done-when 5: the bounds of webhook delivery (docs/limits.md, "Events"), each hit.

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const CALLBACK = 'https://127.0.0.1:9/hook';

describe('webhook limits', () => {
  it('caps the subscriptions one principal holds (maxSubscriptionsPerPrincipal); a refresh is no new one', async () => {
    const served = await startWebhookServer({
      allowPrivateCallbacks: true,
      maxSubscriptionsPerPrincipal: 2,
    });
    cleanups.push(() => served.close());
    const alice = await served.client('alice');
    const subscribe = (client: typeof alice, path: string) =>
      client.serverEvents.subscribe({
        name: 'test_event',
        url: `${CALLBACK}/${path}`,
        secret: generateWebhookSecret(),
      });
    await subscribe(alice, 'a');
    await subscribe(alice, 'b');
    expect(await refusal(subscribe(alice, 'c'))).toMatchObject({
      code: -32013,
      data: { limit: 'maxSubscriptionsPerPrincipal', max: 2 },
    });
    await subscribe(alice, 'a');
    await subscribe(await served.client('bob'), 'c');
    await alice.serverEvents.unsubscribe({ name: 'test_event', url: `${CALLBACK}/a` });
    await subscribe(alice, 'c');
    expect(DEFAULT_WEBHOOK_LIMITS.maxSubscriptionsPerPrincipal).toBe(100);
  });

  it('gives a subscription at most maxTtlMs, whatever ttlMs asks', async () => {
    const served = await startWebhookServer({ allowPrivateCallbacks: true, maxTtlMs: 5_000 });
    cleanups.push(() => served.close());
    const alice = await served.client('alice');
    const { refreshBefore } = await alice.serverEvents.subscribe({
      name: 'test_event',
      url: CALLBACK,
      secret: generateWebhookSecret(),
      ttlMs: 10 * 24 * 60 * 60_000,
    });
    expect(Date.parse(refreshBefore)).toBe(served.clock.now + 5_000);
  });

  it('drops a delivery after maxAttempts failed attempts and goes on with the next', async () => {
    const certificate = selfSignedCertificate();
    cleanups.push(() => certificate.remove());
    const receiver = await httpsReceiver(certificate);
    cleanups.push(() => receiver.close());
    const served = await startWebhookServer({
      allowPrivateCallbacks: true,
      ca: certificate.cert,
      maxAttempts: 3,
      retryDelayMs: 10,
      maxRetryDelayMs: 40,
    });
    cleanups.push(() => served.close());
    let failing = true;
    receiver.answer = () => (failing ? 500 : 204);
    const alice = await served.client('alice');
    await alice.serverEvents.subscribe({
      name: 'test_event',
      url: `${receiver.origin}/hook`,
      secret: generateWebhookSecret(),
    });
    const dropped = await served.emit('never taken');
    await receiver.waitFor(() => true, 3);
    failing = false;
    const next = await served.emit('taken');
    await receiver.waitFor((request) => request.headers['webhook-id'] === next);
    const ids = receiver.received.map((request) => request.headers['webhook-id']);
    expect(ids).toEqual([dropped, dropped, dropped, next]);
  });

  it('holds at most maxPendingPerSubscription deliveries; the oldest waiting one is dropped', async () => {
    const attempted: string[] = [];
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let idle: () => void = () => undefined;
    const drained = new Promise<void>((resolve) => (idle = resolve));
    const queue = new DeliveryQueue({
      maxPending: 2,
      maxAttempts: 1,
      retryDelayMs: 1,
      maxRetryDelayMs: 1,
      attempt: async (delivery: PendingDelivery) => {
        attempted.push(delivery.eventId);
        if (delivery.eventId === 'e1') await gate;
        return 'delivered';
      },
      idle: () => idle(),
    });
    for (const eventId of ['e1', 'e2', 'e3', 'e4', 'e5']) queue.add({ eventId, body: '{}' });
    expect(queue.size).toBe(2);
    release();
    await drained;
    expect(attempted).toEqual(['e1', 'e5']);
    expect(queue.dropped).toBe(3);
    expect(DEFAULT_WEBHOOK_LIMITS.maxPendingPerSubscription).toBe(100);
  });

  it('gives up on a callback that does not answer within timeoutMs', async () => {
    const certificate = selfSignedCertificate();
    cleanups.push(() => certificate.remove());
    const silent = createServer({ cert: certificate.cert, key: certificate.key }, () => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    cleanups.push(
      () =>
        new Promise<void>((resolve) => {
          silent.closeAllConnections();
          silent.close(() => resolve());
        }),
    );
    const { port } = silent.address() as { port: number };
    const started = Date.now();
    await expect(
      postCallback(
        {
          url: new URL(`https://127.0.0.1:${port}/hook`),
          address: { address: '127.0.0.1', family: 4 },
        },
        '{}',
        {},
        { timeoutMs: 200, ca: certificate.cert },
      ),
    ).rejects.toThrow(/in time/);
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    expect(DEFAULT_WEBHOOK_LIMITS.timeoutMs).toBe(10_000);
  });
});
