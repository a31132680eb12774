import { createEndpoint, createServer, extensionMethod, type RondoServer } from '@rondo/core';
import { modernEra } from '@rondo/adapter-2026';
import { events } from '@rondo/events';
import { McpError, text } from '@rondo/protocol';
import type { Client } from '@rondo/client';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  MAX_UPSTREAM_CURSOR_LENGTH,
  proxy,
  relayEvents,
  type EventsRelayOptions,
} from '../src/index.js';
import { clientOf, closeAfterTest, endpointOf, memoryUpstream } from './support.js';

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
  return { server, client };
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

async function until(check: () => boolean, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const methods = (heard: readonly { method: string }[]) => heard.map((entry) => entry.method);

describe('relayEvents', () => {
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
    const descriptor = {
      name: 'ping',
      description: 'A ping',
      delivery: ['poll'],
      inputSchema: { type: 'object' },
      payloadSchema: { type: 'object' },
    };
    const answer = { events: [], truncated: false, hasMore: false, nextPollMs: 1000 };
    const upstream = createServer({ name: 'long-cursors', version: '1.0.0' }).use({
      id: 'io.modelcontextprotocol/events',
      methods: {
        'events/list': extensionMethod({
          params: z.looseObject({}),
          eras: ['modern'],
          handle: async () => ({ events: [descriptor] }),
        }),
        'events/poll': extensionMethod({
          params: z.looseObject({ cursor: z.string().nullable().optional() }),
          eras: ['modern'],
          handle: async ({ cursor }) => ({ ...answer, cursor: cursor ? long : 'short' }),
        }),
      },
    });
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
});
