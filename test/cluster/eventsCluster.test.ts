import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, generateWebhookSecret, httpTransport, verifyWebhookDelivery } from '@rondo/client';
import {
  httpsReceiver,
  selfSignedCertificate,
  type HttpsReceiver,
  type SelfSigned,
} from '@rondo/test-support/httpsReceiver';
import { scaled } from '@rondo/test-support/timeFactor';
import { startCluster, type Cluster } from '../support/cluster.js';

// Issue 42, done-when 3: three fixture replicas on Redis behind nginx share test_event's replay
// buffer (a Redis Stream), its live feed (pub/sub) and its webhook subscriptions and delivery
// claims, and seal cursors with one key: a cursor taken on one replica resumes on another with
// nothing lost or repeated, and each webhook delivery arrives once.

const TEST_EVENT = { name: 'test_event', arguments: {} };

let cluster: Cluster;
let certificate: SelfSigned;
let receiver: HttpsReceiver;
const clients: Client[] = [];

beforeAll(async () => {
  certificate = selfSignedCertificate();
  receiver = await httpsReceiver(certificate);
  cluster = await startCluster(3, {
    env: {
      RONDO_FIXTURE_TOKENS: 'alice-token:alice',
      RONDO_EVENTS_ALLOW_PRIVATE_CALLBACKS: '1',
      NODE_EXTRA_CA_CERTS: certificate.certFile,
    },
  });
}, scaled(60_000));

afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await cluster?.stop();
  await receiver?.close();
  certificate?.remove();
});

/** A modern client of `url` (one replica, or nginx) as alice. */
async function connected(url: string): Promise<Client> {
  const client = new Client({
    era: '2026-07-28',
    transport: httpTransport({ url, headers: { authorization: 'Bearer alice-token' } }),
  });
  await client.connect();
  clients.push(client);
  return client;
}

/** Raises test_event with `message` through `client`; resolves with its eventId. */
async function emit(client: Client, message: string): Promise<string> {
  const called = await client.callTool('emit_test_event', { message });
  return (called.content[0] as { text: string }).text;
}

describe('test_event across three replicas on Redis behind nginx', () => {
  it('resumes a cursor taken on one replica on another, with no event lost or repeated', async () => {
    const [a, b, c] = await Promise.all(cluster.replicas.map((replica) => connected(replica.url)));
    const now = await c!.serverEvents.poll({ ...TEST_EVENT, cursor: null });
    const emitted = [
      await emit(a!, 'one'),
      await emit(b!, 'two'),
      await emit(a!, 'three'),
      await emit(c!, 'four'),
    ];
    const resumed = await b!.serverEvents.poll({ ...TEST_EVENT, cursor: now.cursor });
    expect(resumed.truncated).toBe(false);
    expect(resumed.events.map((event) => event.eventId)).toEqual(emitted);
    expect(resumed.events.map((event) => event.data.message)).toEqual([
      'one',
      'two',
      'three',
      'four',
    ]);
    // The cursor of B's answer, on A: nothing repeated; then only what followed it.
    expect((await a!.serverEvents.poll({ ...TEST_EVENT, cursor: resumed.cursor })).events).toEqual(
      [],
    );
    const later = await emit(b!, 'five');
    const next = await c!.serverEvents.poll({ ...TEST_EVENT, cursor: resumed.cursor });
    expect(next.events.map((event) => event.eventId)).toEqual([later]);
    // Each event's own cursor resumes after it on any replica.
    const fromSecond = await c!.serverEvents.poll({
      ...TEST_EVENT,
      cursor: resumed.events[1]!.cursor,
    });
    expect(fromSecond.events.map((event) => event.eventId)).toEqual([...emitted.slice(2), later]);
  });

  it('delivers an occurrence emitted on one replica to a push stream held on another', async () => {
    const [a, b] = await Promise.all(
      cluster.replicas.slice(0, 2).map((replica) => connected(replica.url)),
    );
    const now = await b!.serverEvents.poll({ ...TEST_EVENT, cursor: null });
    const stream = b!.serverEvents.stream({ ...TEST_EVENT, cursor: now.cursor });
    const heard: string[] = [];
    const reading = (async () => {
      for await (const event of stream) {
        heard.push(event.eventId);
        if (heard.length === 3) break;
      }
    })();
    const emitted = [await emit(a!, 'p1'), await emit(a!, 'p2'), await emit(b!, 'p3')];
    await reading;
    expect(heard).toEqual(emitted);
  });

  it('delivers each occurrence emitted across the replicas once to a webhook subscribed through nginx', async () => {
    const balanced = await connected(cluster.url);
    const secret = generateWebhookSecret();
    const callback = `${receiver.origin}/cluster`;
    const subscription = await balanced.serverEvents.subscribe({
      name: 'test_event',
      url: callback,
      secret,
    });
    const replicas = await Promise.all(cluster.replicas.map((replica) => connected(replica.url)));
    const emitted: string[] = [];
    for (let round = 0; round < 3; round += 1)
      for (const [index, client] of replicas.entries())
        emitted.push(await emit(client, `round ${round} on replica ${index}`));
    const atCallback = (request: { path: string }): boolean => request.path === '/cluster';
    await receiver.waitFor(atCallback, emitted.length);
    // Every replica heard every occurrence: give a late duplicate the time to show itself.
    await new Promise((resolve) => setTimeout(resolve, scaled(1_000)));
    const deliveries = receiver.received.filter(atCallback).map((request) => {
      const verified = verifyWebhookDelivery(secret, request.headers, request.body);
      if (!verified.ok) throw new Error(`a delivery did not verify: ${request.body}`);
      expect(verified.delivery.subscriptionId).toBe(subscription.id);
      return verified.delivery.occurrence.eventId;
    });
    expect([...deliveries].sort()).toEqual([...emitted].sort());
    await balanced.serverEvents.unsubscribe({ name: 'test_event', url: callback });
  });
});
