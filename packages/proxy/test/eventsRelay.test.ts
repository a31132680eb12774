import { createEndpoint, createServer, extensionMethod, type RondoServer } from '@rondo/core';
import { modernEra } from '@rondo/adapter-2026';
import { events } from '@rondo/events';
import { McpError, text, type JsonObject } from '@rondo/protocol';
import { Client } from '@rondo/client';
import { describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';
import { z } from 'zod';
import {
  MAX_RELAYED_POLL_EVENTS,
  MAX_UPSTREAM_CURSOR_LENGTH,
  proxy,
  relayEvents,
  type EventsRelayOptions,
} from '../src/index.js';
import {
  authenticatedTransport,
  clientOf,
  closeAfterTest,
  endpointOf,
  memoryUpstream,
} from './support.js';

// The bounds and the ends of the Events relay (docs/limits.md, "The gateway and its proxies"): the
// streams one caller holds through it, the size of an upstream's cursor, and a relayed stream
// ended by its upstream's shutdown or by the gateway's.

/** An upstream serving one event type, `ping`, raised by its tool `emit`. */
function eventfulUpstream(): RondoServer {
  const served = events().event('ping', {
    description: 'A ping',
    payload: z.object({ n: z.number() }),
  });
  const server = createServer({ name: 'eventful', version: '1.0.0' }).use(served);
  server.tool('emit', { input: z.object({ n: z.number() }) }, async ({ n }) =>
    text(await served.emit('ping', { n })),
  );
  return server;
}

/**
 * An upstream of a hand-written Events extension: one poll-only type `ping`, each poll answered by
 * `answer` (with the params the gateway asked with): to make an upstream misbehave on purpose.
 */
function scriptedUpstream(
  name: string,
  answer: (params: { cursor?: string | null; maxEvents?: number }) => JsonObject,
): RondoServer {
  const descriptor = {
    name: 'ping',
    description: 'A ping',
    delivery: ['poll'],
    inputSchema: { type: 'object' },
    payloadSchema: { type: 'object' },
  };
  return createServer({ name, version: '1.0.0' }).use({
    id: 'io.modelcontextprotocol/events',
    methods: {
      'events/list': extensionMethod({
        params: z.looseObject({}),
        eras: ['modern'],
        handle: async () => ({ events: [descriptor] }),
      }),
      'events/poll': extensionMethod({
        params: z.looseObject({
          cursor: z.string().nullable().optional(),
          maxEvents: z.number().optional(),
        }),
        eras: ['modern'],
        handle: async (params) => answer(params),
      }),
    },
  });
}

/** A gateway over `upstream` (namespace `up`) relaying its events, closed after the test. */
async function relayingGateway(upstream: RondoServer, options: EventsRelayOptions = {}) {
  const provider = proxy(memoryUpstream(endpointOf(upstream, 'modern')), { namespace: 'up' });
  const server = createServer({ name: 'gateway', version: '1.0.0' }).provider(provider);
  server.use(relayEvents(() => [provider], options));
  closeAfterTest(() => server.close());
  closeAfterTest(() => upstream.close());
  const endpoint = createEndpoint(server, { modern: modernEra() });
  const client = await clientOf(endpoint, '2026-07-28');
  closeAfterTest(() => client.close());
  await provider.tools();
  return { server, client, endpoint };
}

/** Opens a raw `events/stream` and collects its notifications; resolves with its outcome. */
function rawStream(client: Client, name: string) {
  const heard: { method: string; params: Record<string, unknown> }[] = [];
  let id: unknown;
  const off = client.on('notification', ({ method, params }) => {
    const meta = params?._meta as Record<string, unknown> | undefined;
    if (params && meta?.['io.modelcontextprotocol/subscriptionId'] === id)
      heard.push({ method, params });
  });
  const controller = new AbortController();
  const done = client
    .request(
      'events/stream',
      { name, arguments: {}, cursor: null },
      { timeoutMs: 0, signal: controller.signal, onRequestId: (sent) => (id = sent) },
    )
    .then(
      (result) => ({ result }),
      (error: unknown) => ({ error }),
    )
    .finally(off);
  return { heard, done, cancel: () => controller.abort() };
}

async function until(check: () => boolean, ms = scaled(5000)): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const methods = (heard: readonly { method: string }[]) => heard.map((entry) => entry.method);

describe('relayEvents', () => {
  it('opens streams asked at once before any list, each as if it came alone', async () => {
    const { client } = await relayingGateway(eventfulUpstream());
    // Neither name is known yet: the first request reads the upstream's list, the second waits for it.
    const first = rawStream(client, 'up_ping');
    const second = rawStream(client, 'up_ping');
    await until(() => methods(first.heard).includes('notifications/events/active'));
    await until(() => methods(second.heard).includes('notifications/events/active'));
    first.cancel();
    second.cancel();
    await Promise.all([first.done, second.done]);
  });

  it('holds a caller to maxStreamsPerClient relayed streams, and a cancelled one gives its place back', async () => {
    const { client } = await relayingGateway(eventfulUpstream(), { maxStreamsPerClient: 2 });
    const first = rawStream(client, 'up_ping');
    await until(() => methods(first.heard).includes('notifications/events/active'));
    const second = rawStream(client, 'up_ping');
    await until(() => methods(second.heard).includes('notifications/events/active'));
    const third = rawStream(client, 'up_ping');
    const refused = (await third.done) as { error?: unknown };
    expect(refused.error).toBeInstanceOf(McpError);
    expect((refused.error as McpError).code).toBe(-32013);
    expect((refused.error as McpError).data).toEqual({ limit: 'maxStreamsPerClient', max: 2 });
    first.cancel();
    await first.done;
    const fourth = rawStream(client, 'up_ping');
    await until(() => methods(fourth.heard).includes('notifications/events/active'));
    second.cancel();
    fourth.cancel();
  });

  it('relays the upstream’s terminated when the upstream shuts down, and ends the request', async () => {
    const upstream = eventfulUpstream();
    const { client } = await relayingGateway(upstream);
    const stream = rawStream(client, 'up_ping');
    await until(() => methods(stream.heard).includes('notifications/events/active'));
    await client.callTool('up_emit', { n: 1 });
    await until(() => methods(stream.heard).includes('notifications/events/event'));
    await upstream.close();
    const outcome = await stream.done;
    expect('result' in outcome).toBe(true);
    expect(methods(stream.heard)).toEqual([
      'notifications/events/active',
      'notifications/events/event',
      'notifications/events/terminated',
    ]);
    const event = stream.heard[1]!.params;
    expect(event.name).toBe('up_ping');
    expect(event.data).toEqual({ n: 1 });
  });

  it('ends its relayed streams with terminated (reason shutdown) when the gateway closes', async () => {
    const { server, client } = await relayingGateway(eventfulUpstream());
    const stream = rawStream(client, 'up_ping');
    await until(() => methods(stream.heard).includes('notifications/events/active'));
    await server.close();
    await stream.done;
    const last = stream.heard.at(-1)!;
    expect(last.method).toBe('notifications/events/terminated');
    expect(last.params.error).toMatchObject({ data: { reason: 'shutdown' } });
  });

  it(`fails a poll whose upstream cursor is past ${MAX_UPSTREAM_CURSOR_LENGTH} characters, wrapping none of it`, async () => {
    const long = 'c'.repeat(MAX_UPSTREAM_CURSOR_LENGTH + 1);
    const answer = { events: [], truncated: false, hasMore: false, nextPollMs: 1000 };
    const upstream = scriptedUpstream('long-cursors', ({ cursor }) => ({
      ...answer,
      cursor: cursor ? long : 'short',
    }));
    const { client } = await relayingGateway(upstream);
    const now = await client.serverEvents.poll({ name: 'up_ping', cursor: null });
    expect(now.cursor).not.toContain('short');
    const failed = await client.serverEvents.poll({ name: 'up_ping', cursor: now.cursor }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failed).toBeInstanceOf(McpError);
    expect((failed as McpError).code).toBe(-32603);
    expect((failed as McpError).message).toMatch(/cursor longer than 4096 characters/);
  });
  it('opens a caller’s cursor for that caller only: another principal’s poll with it is refused', async () => {
    const { endpoint } = await relayingGateway(eventfulUpstream());
    const as = async (principal: string) => {
      const client = new Client({
        transport: authenticatedTransport(endpoint, principal, []),
        era: '2026-07-28',
      });
      await client.connect();
      closeAfterTest(() => client.close());
      return client;
    };
    const alice = await as('alice');
    const bob = await as('bob');
    const now = await alice.serverEvents.poll({ name: 'up_ping', cursor: null });
    await alice.callTool('up_emit', { n: 7 });
    const stolen = await bob.serverEvents.poll({ name: 'up_ping', cursor: now.cursor }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(stolen).toBeInstanceOf(McpError);
    expect((stolen as McpError).code).toBe(-32602);
    const resumed = await alice.serverEvents.poll({ name: 'up_ping', cursor: now.cursor });
    expect(resumed.events.map((event) => event.data)).toEqual([{ n: 7 }]);
  });

  it(`asks an upstream for ${MAX_RELAYED_POLL_EVENTS} events at most, and refuses an answer longer than asked`, async () => {
    const asked: unknown[] = [];
    const occurrence = (n: number) => ({
      eventId: `e${n}`,
      name: 'ping',
      timestamp: new Date(0).toISOString(),
      data: { n },
      cursor: `c${n}`,
    });
    const upstream = scriptedUpstream('wordy', ({ maxEvents }) => {
      asked.push(maxEvents);
      // One more than asked for, when asked for few.
      const events = maxEvents === 2 ? [1, 2, 3].map(occurrence) : [];
      return { events, cursor: 'c', truncated: false, hasMore: false, nextPollMs: 1000 };
    });
    const { client } = await relayingGateway(upstream);
    await client.serverEvents.poll({ name: 'up_ping', cursor: null, maxEvents: 5000 });
    expect(asked).toEqual([MAX_RELAYED_POLL_EVENTS]);
    const failed = await client.serverEvents
      .poll({ name: 'up_ping', cursor: null, maxEvents: 2 })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect((failed as McpError).code).toBe(-32603);
    expect((failed as McpError).message).toMatch(/more than the 2 events asked for/);
  });
});
