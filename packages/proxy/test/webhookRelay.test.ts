import { createEndpoint, createServer, type RondoServer } from '@rondo/core';
import { modernEra } from '@rondo/adapter-2026';
import { events, type ServerEvents } from '@rondo/events';
import { text } from '@rondo/protocol';
import { Client, generateWebhookSecret, verifyWebhookDelivery } from '@rondo/client';
import {
  httpsReceiver,
  selfSignedCertificate,
  type HttpsReceiver,
  type ReceivedRequest,
  type SelfSigned,
} from '@rondo/test-support/httpsReceiver';
import { refusal } from '@rondo/test-support/refusal';
import { scaled } from '@rondo/test-support/timeFactor';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { proxy, relayEvents, type EventsRelayOptions } from '../src/index.js';
import {
  authenticatedTransport,
  clientOf,
  closeAfterTest,
  endpointOf,
  memoryUpstream,
} from './support.js';

// Issue 42, done-when 4 (webhook through the gateway): the gateway holds its callers' webhook
// subscriptions itself, each fed by an upstream events/stream and POSTed, signed with the caller's
// secret, to a real HTTPS receiver on 127.0.0.1; the refusals, the lifetime, unsubscribe and the
// bounds (docs/limits.md, "The gateway and its proxies").

let certificate: SelfSigned;
let receiver: HttpsReceiver;

beforeAll(async () => {
  certificate = selfSignedCertificate();
  receiver = await httpsReceiver(certificate);
});

afterAll(async () => {
  await receiver?.close();
  certificate?.remove();
});

/**
 * An upstream with `ping` (poll, push, webhook), `room_ping` (arguments `{ room }`, push and
 * webhook) and `pushless` (poll and webhook), raised by its tools.
 */
function eventfulUpstream(): { server: RondoServer; served: ServerEvents } {
  const served = events()
    .event('ping', {
      description: 'A ping',
      payload: z.object({ n: z.number() }),
      modes: ['poll', 'push', 'webhook'],
    })
    .event('room_ping', {
      description: 'A ping in a room',
      input: z.object({ room: z.string() }),
      payload: z.object({ room: z.string() }),
      modes: ['push', 'webhook'],
    })
    .event('pushless', {
      description: 'Offered without push',
      payload: z.object({ n: z.number() }),
      modes: ['poll', 'webhook'],
    });
  const server = createServer({ name: 'eventful', version: '1.0.0' }).use(served);
  server.tool('emit', { input: z.object({ n: z.number() }) }, async ({ n }) =>
    text(await served.emit('ping', { n })),
  );
  server.tool('emit_in', { input: z.object({ room: z.string() }) }, async ({ room }) =>
    text(await served.emit('room_ping', { room }, { match: { room } })),
  );
  return { server, served };
}

const DEVELOPMENT: EventsRelayOptions = {
  webhooks: { allowPrivateCallbacks: true, retryDelayMs: 20, maxRetryDelayMs: 40 },
};

/** A gateway over the eventful upstream (namespace `up`), and a client for a principal of it. */
async function gatewayWith(options: EventsRelayOptions = DEVELOPMENT) {
  const { server: upstream, served } = eventfulUpstream();
  const provider = proxy(memoryUpstream(endpointOf(upstream, 'modern')), { namespace: 'up' });
  const server = createServer({ name: 'gateway', version: '1.0.0' }).provider(provider);
  const withCa = options.webhooks
    ? { ...options, webhooks: { ...options.webhooks, ca: certificate.cert } }
    : options;
  server.use(relayEvents(() => [provider], withCa));
  closeAfterTest(() => server.close());
  closeAfterTest(() => upstream.close());
  const endpoint = createEndpoint(server, { modern: modernEra() });
  await provider.tools();
  const as = async (principal: string): Promise<Client> => {
    const client = new Client({
      transport: authenticatedTransport(endpoint, principal, []),
      era: '2026-07-28',
    });
    await client.connect();
    closeAfterTest(() => client.close());
    return client;
  };
  const anonymous = await clientOf(endpoint, '2026-07-28');
  closeAfterTest(() => anonymous.close());
  return { as, anonymous, served };
}

let paths = 0;
/** A callback URL of the receiver no other test uses, and what arrived there. */
function callback() {
  const path = `/hook-${(paths += 1)}`;
  const at = (request: ReceivedRequest) => request.path === path;
  return {
    url: `${receiver.origin}${path}`,
    received: () => receiver.received.filter(at),
    waitFor: (count = 1) => receiver.waitFor(at, count),
  };
}

const bodyOf = (request: ReceivedRequest) => JSON.parse(request.body) as Record<string, unknown>;

describe('relayEvents: webhook subscriptions held by the gateway', () => {
  it('lists webhook where the upstream offers it with push, and not when webhooks are off', async () => {
    const on = await (await gatewayWith()).as('alice');
    const listed = await on.serverEvents.list();
    const modes = Object.fromEntries(listed.events.map((type) => [type.name, type.delivery]));
    expect(modes).toEqual({
      up_ping: ['poll', 'push', 'webhook'],
      up_room_ping: ['push', 'webhook'],
      // No push to feed the gateway's deliveries: poll only.
      up_pushless: ['poll'],
    });
    const off = await (await gatewayWith({ webhooks: false })).as('alice');
    const offModes = (await off.serverEvents.list()).events.map((type) => type.delivery);
    expect(offModes).toEqual([['poll', 'push'], ['push'], ['poll']]);
  });

  it('POSTs each occurrence signed with the caller’s secret, its cursor resuming for that caller only', async () => {
    const { as } = await gatewayWith();
    const alice = await as('alice');
    const hook = callback();
    const secret = generateWebhookSecret();
    const subscribed = await alice.serverEvents.subscribe({
      name: 'up_ping',
      url: hook.url,
      secret,
    });
    expect(subscribed.id).toMatch(/^sub_/);
    expect(Date.parse(subscribed.refreshBefore)).toBeGreaterThan(Date.now());
    await alice.callTool('up_emit', { n: 1 });
    await alice.callTool('up_emit', { n: 2 });
    const [first, second] = await hook.waitFor(2);
    const verdict = verifyWebhookDelivery(secret, first!.headers, first!.body);
    expect(verdict).toMatchObject({ ok: true, delivery: { subscriptionId: subscribed.id } });
    expect(bodyOf(first!)).toMatchObject({ name: 'up_ping', data: { n: 1 } });
    expect(bodyOf(second!)).toMatchObject({ name: 'up_ping', data: { n: 2 } });
    // A tampered body does not verify, nor does another secret.
    const tampered = first!.body.replace('"n":1', '"n":9');
    expect(verifyWebhookDelivery(secret, first!.headers, tampered).ok).toBe(false);
    expect(verifyWebhookDelivery(generateWebhookSecret(), first!.headers, first!.body).ok).toBe(
      false,
    );
    // The first delivery's cursor polls from after it, for alice; bob cannot use it.
    const cursor = bodyOf(first!).cursor as string;
    const polled = await alice.serverEvents.poll({ name: 'up_ping', cursor });
    expect(polled.events.map((event) => event.data)).toEqual([{ n: 2 }]);
    const bob = await as('bob');
    const stolen = await refusal(bob.serverEvents.poll({ name: 'up_ping', cursor }));
    expect(stolen.code).toBe(-32602);
  });

  it('delivers a subscription with arguments only the occurrences that match them', async () => {
    const { as } = await gatewayWith();
    const alice = await as('alice');
    const hook = callback();
    const secret = generateWebhookSecret();
    await alice.serverEvents.subscribe({
      name: 'up_room_ping',
      arguments: { room: 'kitchen' },
      url: hook.url,
      secret,
    });
    await alice.callTool('up_emit_in', { room: 'garden' });
    await alice.callTool('up_emit_in', { room: 'kitchen' });
    const [delivered] = await hook.waitFor(1);
    expect(bodyOf(delivered!)).toMatchObject({ data: { room: 'kitchen' } });
    // Arguments the upstream's inputSchema refuses: its InvalidParams, naming the caller's type.
    const bad = await refusal(
      alice.serverEvents.subscribe({
        name: 'up_room_ping',
        arguments: { room: 7 },
        url: callback().url,
        secret,
      }),
    );
    expect(bad.code).toBe(-32602);
    expect(bad.message).toContain('"up_room_ping"');
  });

  it('refuses the caller without a principal, a private or plain-http callback, a bad secret, an unknown or push-less type', async () => {
    const strict = await gatewayWith({});
    const secret = generateWebhookSecret();
    const url = callback().url;
    const anonymous = await refusal(
      strict.anonymous.serverEvents.subscribe({ name: 'up_ping', url, secret }),
    );
    expect(anonymous).toMatchObject({ code: -32012, data: { reason: 'unauthenticated' } });
    const alice = await strict.as('alice');
    // 127.0.0.1 is not public: refused unless the development option allows it.
    const privateUrl = await refusal(
      alice.serverEvents.subscribe({ name: 'up_ping', url, secret }),
    );
    expect(privateUrl).toMatchObject({
      code: -32602,
      data: { field: 'delivery.url', reason: 'private-address' },
    });
    const plain = await refusal(
      alice.serverEvents.subscribe({ name: 'up_ping', url: 'http://example.com/hook', secret }),
    );
    expect(plain.data).toMatchObject({ field: 'delivery.url', reason: 'not-https' });
    const badSecret = await refusal(
      alice.serverEvents.subscribe({ name: 'up_ping', url, secret: 'whsec_c2hvcnQ=' }),
    );
    expect(badSecret.data).toMatchObject({ field: 'delivery.secret' });
    const unknown = await refusal(alice.serverEvents.subscribe({ name: 'up_nope', url, secret }));
    expect(unknown).toMatchObject({ code: -32011, data: { kind: 'event', name: 'up_nope' } });
    const pushless = await refusal(
      alice.serverEvents.subscribe({ name: 'up_pushless', url, secret }),
    );
    expect(pushless).toMatchObject({
      code: -32014,
      data: { name: 'up_pushless', delivery: 'webhook' },
    });
    // With webhooks off the gateway refuses the mode itself.
    const off = await (await gatewayWith({ webhooks: false })).as('alice');
    const refused = await refusal(off.serverEvents.subscribe({ name: 'up_ping', url, secret }));
    expect(refused).toMatchObject({ code: -32014, data: { delivery: 'webhook' } });
  });

  it('stops delivering when the subscription lapses, and keeps delivering while it is refreshed', async () => {
    const { as } = await gatewayWith();
    const alice = await as('alice');
    const secret = generateWebhookSecret();
    const lapsing = callback();
    const refreshed = callback();
    const ttlMs = scaled(600);
    await alice.serverEvents.subscribe({ name: 'up_ping', url: lapsing.url, secret, ttlMs });
    await alice.serverEvents.subscribe({ name: 'up_ping', url: refreshed.url, secret, ttlMs });
    for (let step = 0; step < 3; step += 1) {
      await new Promise((resolve) => setTimeout(resolve, ttlMs / 2));
      // The same request again before refreshBefore: the same subscription, a new expiry.
      await alice.serverEvents.subscribe({ name: 'up_ping', url: refreshed.url, secret, ttlMs });
    }
    await alice.callTool('up_emit', { n: 5 });
    await alice.callTool('up_emit', { n: 6 });
    const kept = await refreshed.waitFor(2);
    expect(kept.map((request) => bodyOf(request).data)).toEqual([{ n: 5 }, { n: 6 }]);
    expect(lapsing.received()).toEqual([]);
  });

  it('stops delivering after unsubscribe, and after the callback answers 410 Gone', async () => {
    const { as } = await gatewayWith();
    const alice = await as('alice');
    const secret = generateWebhookSecret();
    const ended = callback();
    const gone = callback();
    const control = callback();
    for (const hook of [ended, gone, control])
      await alice.serverEvents.subscribe({ name: 'up_ping', url: hook.url, secret });
    const answer = receiver.answer;
    receiver.answer = (request) => (request.path === new URL(gone.url).pathname ? 410 : 204);
    try {
      await alice.callTool('up_emit', { n: 1 });
      await Promise.all([ended.waitFor(1), gone.waitFor(1), control.waitFor(1)]);
      await alice.serverEvents.unsubscribe({ name: 'up_ping', url: ended.url });
      await alice.callTool('up_emit', { n: 2 });
      await alice.callTool('up_emit', { n: 3 });
      await control.waitFor(3);
      // Both came after the first delivery only; the 410 was taken as the end.
      expect(ended.received()).toHaveLength(1);
      expect(gone.received()).toHaveLength(1);
      // Unsubscribing again, or what was never subscribed, is no error.
      await alice.serverEvents.unsubscribe({ name: 'up_ping', url: ended.url });
    } finally {
      receiver.answer = answer;
    }
  });

  it('resumes from its last cursor when the upstream ends its stream: nothing lost, nothing repeated', async () => {
    const { as, served } = await gatewayWith();
    const alice = await as('alice');
    const hook = callback();
    await alice.serverEvents.subscribe({
      name: 'up_ping',
      url: hook.url,
      secret: generateWebhookSecret(),
    });
    await alice.callTool('up_emit', { n: 1 });
    await hook.waitFor(1);
    // The upstream ends every stream (terminated); what it raises meanwhile waits in its replay.
    await served.close();
    await alice.callTool('up_emit', { n: 2 });
    await alice.callTool('up_emit', { n: 3 });
    const delivered = await hook.waitFor(3);
    expect(delivered.map((request) => bodyOf(request).data)).toEqual([
      { n: 1 },
      { n: 2 },
      { n: 3 },
    ]);
  });

  it('holds a principal to maxSubscriptionsPerPrincipal and the gateway to maxSubscriptions', async () => {
    const { as } = await gatewayWith({
      webhooks: {
        allowPrivateCallbacks: true,
        maxSubscriptionsPerPrincipal: 1,
        maxSubscriptions: 2,
      },
    });
    const secret = generateWebhookSecret();
    const alice = await as('alice');
    const first = callback().url;
    await alice.serverEvents.subscribe({ name: 'up_ping', url: first, secret });
    // A refresh is no new subscription.
    await alice.serverEvents.subscribe({ name: 'up_ping', url: first, secret });
    const second = await refusal(
      alice.serverEvents.subscribe({ name: 'up_ping', url: callback().url, secret }),
    );
    expect(second).toMatchObject({
      code: -32013,
      data: { limit: 'maxSubscriptionsPerPrincipal', max: 1 },
    });
    await (
      await as('bob')
    ).serverEvents.subscribe({ name: 'up_ping', url: callback().url, secret });
    const carol = await refusal(
      (await as('carol')).serverEvents.subscribe({ name: 'up_ping', url: callback().url, secret }),
    );
    expect(carol).toMatchObject({ code: -32013, data: { limit: 'maxSubscriptions', max: 2 } });
    // An ended subscription gives its place back.
    await alice.serverEvents.unsubscribe({ name: 'up_ping', url: first });
    await (
      await as('carol')
    ).serverEvents.subscribe({
      name: 'up_ping',
      url: callback().url,
      secret,
    });
  });
});
