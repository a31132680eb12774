import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateWebhookSecret, verifyWebhookDelivery } from '@rondo/client';
import {
  httpsReceiver,
  selfSignedCertificate,
  type HttpsReceiver,
  type ReceivedRequest,
  type SelfSigned,
} from '@rondo/test-support/httpsReceiver';
import { refusal } from '@rondo/test-support/refusal';
import { startWebhookServer, type WebhookServer } from './webhookSupport.js';
import { modernMeta, rpc } from './support.js';

// Issue 42, done-when 2: webhook delivery to a real HTTPS receiver on 127.0.0.1 whose self-signed
// certificate the server trusts (`webhooks.ca`). Deliveries are signed the Standard Webhooks way
// and checked with @rondo/client's verifyWebhookDelivery; the subscription's TTL, its refresh and
// events/unsubscribe decide what is delivered; callers without a principal and callbacks on
// private addresses are refused.

let certificate: SelfSigned;
let receiver: HttpsReceiver;
let served: WebhookServer;

beforeAll(async () => {
  certificate = selfSignedCertificate();
  receiver = await httpsReceiver(certificate);
  served = await startWebhookServer({
    allowPrivateCallbacks: true,
    ca: certificate.cert,
    retryDelayMs: 20,
    maxRetryDelayMs: 100,
  });
});

afterAll(async () => {
  await served?.close();
  await receiver?.close();
  certificate?.remove();
});

let paths = 0;
/** A callback URL of its own on the receiver, and the requests it took. */
function callback(): { url: string; taken: () => ReceivedRequest[] } {
  const path = `/hook/${++paths}`;
  return {
    url: `${receiver.origin}${path}`,
    taken: () => receiver.received.filter((request) => request.path === path),
  };
}

const onPath = (url: string) => (request: ReceivedRequest) => url.endsWith(request.path);

describe('webhook delivery to an https receiver', () => {
  it('signs each delivery with the subscription secret; a tampered body or another secret fails', async () => {
    const alice = await served.client('alice');
    const secret = generateWebhookSecret();
    const hook = callback();
    const subscription = await alice.serverEvents.subscribe({
      name: 'test_event',
      url: hook.url,
      secret,
    });
    expect(subscription.id).toMatch(/^sub_/);
    expect(Date.parse(subscription.refreshBefore)).toBeGreaterThan(served.clock.now);
    const eventId = await served.emit('hello');
    const [delivery] = await receiver.waitFor(onPath(hook.url));
    expect(delivery!.headers['content-type']).toBe('application/json');
    expect(delivery!.headers['webhook-id']).toBe(eventId);
    expect(delivery!.headers['x-mcp-subscription-id']).toBe(subscription.id);
    expect(delivery!.headers['webhook-signature']).toMatch(/^v1,/);
    const verdict = verifyWebhookDelivery(secret, delivery!.headers, delivery!.body);
    expect(verdict).toMatchObject({
      ok: true,
      delivery: {
        subscriptionId: subscription.id,
        occurrence: { eventId, name: 'test_event', data: { message: 'hello' } },
      },
    });
    const tampered = delivery!.body.replace('hello', 'hellp');
    expect(verifyWebhookDelivery(secret, delivery!.headers, tampered).ok).toBe(false);
    const otherSecret = generateWebhookSecret();
    expect(verifyWebhookDelivery(otherSecret, delivery!.headers, delivery!.body).ok).toBe(false);
    // The delivery's cursor is the subscriber's: a poll from it resumes after the occurrence.
    const occurrence = verdict.ok ? verdict.delivery.occurrence : undefined;
    const next = await served.emit('after');
    const polled = await alice.serverEvents.poll({
      name: 'test_event',
      cursor: occurrence!.cursor ?? null,
    });
    expect(polled.events.map((event) => event.eventId)).toEqual([next]);
  });

  it('delivers to the subscriptions whose arguments match', async () => {
    const alice = await served.client('alice');
    const [red, blue] = [callback(), callback()];
    for (const [room, hook] of [
      ['red', red],
      ['blue', blue],
    ] as const)
      await alice.serverEvents.subscribe({
        name: 'room_message',
        arguments: { room },
        url: hook.url,
        secret: generateWebhookSecret(),
      });
    await served.emitInRoom('red', 'one');
    await served.emitInRoom('blue', 'two');
    await receiver.waitFor(onPath(blue.url));
    await receiver.waitFor(onPath(red.url));
    expect(red.taken().map((request) => JSON.parse(request.body).data.text)).toEqual(['one']);
    expect(blue.taken().map((request) => JSON.parse(request.body).data.text)).toEqual(['two']);
  });

  it('stops at the TTL; a refresh (the same subscribe again) keeps deliveries coming', async () => {
    const alice = await served.client('alice');
    const [kept, lapsed, sentinel] = [callback(), callback(), callback()];
    const subscribe = (url: string, ttlMs: number) =>
      alice.serverEvents.subscribe({
        name: 'test_event',
        url,
        secret: generateWebhookSecret(),
        ttlMs,
      });
    const first = await subscribe(kept.url, 60_000);
    await subscribe(lapsed.url, 60_000);
    served.clock.now += 40_000;
    const refreshed = await subscribe(kept.url, 60_000);
    expect(refreshed.id).toBe(first.id);
    expect(Date.parse(refreshed.refreshBefore)).toBeGreaterThan(Date.parse(first.refreshBefore));
    served.clock.now += 30_000; // 70 s after the first subscribe: only the refreshed one lives
    await subscribe(sentinel.url, 60_000);
    await served.emit('after the first TTL');
    // One occurrence is fanned out to every live subscription at once: the sentinel's delivery
    // means the lapsed subscription was passed over.
    await receiver.waitFor(onPath(sentinel.url));
    await receiver.waitFor((request) => onPath(kept.url)(request) && request.body.includes('TTL'));
    expect(lapsed.taken()).toEqual([]);
    served.clock.now += 61_000; // past the refreshed TTL too
    const last = callback();
    await subscribe(last.url, 60_000);
    await served.emit('after the refreshed TTL');
    await receiver.waitFor(onPath(last.url));
    expect(kept.taken().some((request) => request.body.includes('refreshed TTL'))).toBe(false);
  });

  it('stops after events/unsubscribe; another principal cannot unsubscribe it', async () => {
    const alice = await served.client('alice');
    const bob = await served.client('bob');
    const [gone, stays] = [callback(), callback()];
    for (const hook of [gone, stays])
      await alice.serverEvents.subscribe({
        name: 'test_event',
        url: hook.url,
        secret: generateWebhookSecret(),
      });
    await bob.serverEvents.unsubscribe({ name: 'test_event', url: stays.url });
    await alice.serverEvents.unsubscribe({ name: 'test_event', url: gone.url });
    await served.emit('after unsubscribe');
    await receiver.waitFor(onPath(stays.url));
    expect(gone.taken()).toEqual([]);
  });

  it('ends a subscription its callback answers 410 Gone; subscribing again starts it anew', async () => {
    const alice = await served.client('alice');
    const [gone, sentinel] = [callback(), callback()];
    const answer = receiver.answer;
    let goneAnswer = 410;
    receiver.answer = (request) => (onPath(gone.url)(request) ? goneAnswer : answer(request));
    try {
      const subscribe = (url: string) =>
        alice.serverEvents.subscribe({ name: 'test_event', url, secret: generateWebhookSecret() });
      await subscribe(gone.url);
      await subscribe(sentinel.url);
      await served.emit('first');
      await receiver.waitFor(onPath(gone.url));
      await receiver.waitFor(onPath(sentinel.url));
      await served.emit('second');
      await receiver.waitFor(onPath(sentinel.url), 2);
      expect(gone.taken().map((request) => JSON.parse(request.body).data.message)).toEqual([
        'first',
      ]);
      goneAnswer = 204;
      await subscribe(gone.url);
      await served.emit('third');
      await receiver.waitFor(onPath(gone.url), 2);
      expect(gone.taken().map((request) => JSON.parse(request.body).data.message)).toEqual([
        'first',
        'third',
      ]);
    } finally {
      receiver.answer = answer;
    }
  });

  it('retries a failed delivery with the same webhook-id, then delivers', async () => {
    const alice = await served.client('alice');
    const hook = callback();
    let failures = 2;
    const answer = receiver.answer;
    receiver.answer = (request) =>
      onPath(hook.url)(request) && failures-- > 0 ? 503 : answer(request);
    try {
      await alice.serverEvents.subscribe({
        name: 'test_event',
        url: hook.url,
        secret: generateWebhookSecret(),
      });
      const eventId = await served.emit('retried');
      const attempts = await receiver.waitFor(onPath(hook.url), 3);
      expect(attempts.map((request) => request.headers['webhook-id'])).toEqual([
        eventId,
        eventId,
        eventId,
      ]);
    } finally {
      receiver.answer = answer;
    }
  });
});

describe('what events/subscribe refuses', () => {
  it('refuses a request without a token (401), and a caller without a principal (-32012)', async () => {
    const unauthenticated = await fetch(served.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'events/subscribe',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'events/subscribe',
        params: {
          name: 'test_event',
          delivery: { mode: 'webhook', url: callback().url, secret: generateWebhookSecret() },
          _meta: modernMeta(),
        },
      }),
    });
    expect(unauthenticated.status).toBe(401);
    const open = await startWebhookServer({ allowPrivateCallbacks: true }, false);
    try {
      const answer = await rpc(open.url, 'events/subscribe', {
        name: 'test_event',
        delivery: { mode: 'webhook', url: callback().url, secret: generateWebhookSecret() },
      });
      expect(answer.error).toMatchObject({
        code: -32012,
        data: { name: 'test_event', reason: 'unauthenticated' },
      });
    } finally {
      await open.close();
    }
  });

  it('refuses a callback on a private address unless allowed, and any callback not https', async () => {
    const guarded = await startWebhookServer({});
    try {
      const alice = await guarded.client('alice');
      const subscribe = (url: string, secret = generateWebhookSecret()) =>
        refusal(alice.serverEvents.subscribe({ name: 'test_event', url, secret }));
      for (const url of [
        callback().url,
        'https://localhost/hook',
        'https://10.1.2.3/hook',
        'https://[::1]/hook',
        'https://169.254.169.254/latest',
        'https://[::ffff:192.168.0.1]/hook',
      ])
        expect(await subscribe(url), url).toMatchObject({
          code: -32602,
          data: { field: 'delivery.url', reason: 'private-address' },
        });
      expect(await subscribe('http://example.com/hook')).toMatchObject({
        code: -32602,
        data: { field: 'delivery.url', reason: 'not-https' },
      });
      expect(await subscribe('https://example.com/hook', 'not-a-secret')).toMatchObject({
        code: -32602,
        data: { field: 'delivery.secret' },
      });
    } finally {
      await guarded.close();
    }
  });

  it('refuses an unknown type, a type without webhook delivery and arguments off its schema', async () => {
    const alice = await served.client('alice');
    const subscribe = (name: string, args: Record<string, unknown> = {}) =>
      refusal(
        alice.serverEvents.subscribe({
          name,
          arguments: args,
          url: callback().url,
          secret: generateWebhookSecret(),
        }),
      );
    expect(await subscribe('no_such_type')).toMatchObject({
      code: -32011,
      data: { kind: 'event', name: 'no_such_type' },
    });
    expect(await subscribe('poll_only')).toMatchObject({
      code: -32014,
      data: { name: 'poll_only', delivery: 'webhook' },
    });
    expect(await subscribe('room_message', { room: 7 })).toMatchObject({
      code: -32602,
      data: { name: 'room_message', field: 'arguments' },
    });
  });
});
