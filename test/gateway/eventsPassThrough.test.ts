import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  Client,
  generateWebhookSecret,
  httpTransport,
  type EventOccurrence,
  type EventStream,
} from '@rondo/client';
import { McpError } from '@rondo/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';
import { logtalkHomeForTests } from '@rondo/test-support/logtalkHome';
import { FIXTURE_MAIN, startGateway, writeConfig, type RunningGateway } from './support.js';

// Issue 42 (the gateway) and done-when 4 (the gateway half): @rondo/client consumes an upstream's
// events through rondo-gateway over HTTP: the conformance fixture (a stdio upstream) and a prolog
// entry whose provider declares events/1, each type named as its entry's tools; poll from now and
// resume, a push stream heard live, cursors wrapped per upstream and refused elsewhere, and a
// webhook subscription refused to a caller without a principal (webhooks delivered through an
// authenticating gateway: eventsWebhooks.test.ts).

logtalkHomeForTests();
const dir = mkdtempSync(join(tmpdir(), 'rondo-gateway-events-'));
writeFileSync(
  join(dir, 'eventful.pl'),
  `:- module(eventful, []).

events([
    event(test_event, [
        description("A test event raised by emit_test_event"),
        payload({type-object, properties-{message-{type-string}}, required-[message]})
    ])
]).

tools([tool(emit_test_event, emit_test_event, 1)]).

:- mode(emit_test_event(+string), one).
emit_test_event(Message) :- mcp_emit(test_event, {message-Message}).
`,
);

let gateway: RunningGateway;

beforeAll(async () => {
  const config = writeConfig({
    fixture: { command: process.execPath, args: [FIXTURE_MAIN] },
    prolog: { prolog: join(dir, 'eventful.pl') },
  });
  gateway = await startGateway(config);
}, scaled(90_000));

afterAll(async () => {
  await gateway?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function connected(era: '2026-07-28' | '2025-11-25' = '2026-07-28'): Promise<Client> {
  const client = new Client({ transport: httpTransport({ url: gateway.url.href }), era });
  await client.connect();
  return client;
}

/** The error a promise rejects with. */
async function refusal(promise: Promise<unknown>): Promise<McpError> {
  const outcome = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(outcome).toBeInstanceOf(McpError);
  return outcome as McpError;
}

/** The next `count` occurrences of `stream`, or a failure after `ms`. */
async function take(stream: EventStream, count: number, ms = scaled(20_000)) {
  const taken: EventOccurrence[] = [];
  const iterator = stream[Symbol.asyncIterator]();
  const deadline = new Promise<never>((_, reject) =>
    setTimeout(() => reject(new Error(`only ${taken.length} of ${count} occurrences`)), ms).unref(),
  );
  while (taken.length < count) {
    const next = await Promise.race([iterator.next(), deadline]);
    if (next.done) break;
    taken.push(next.value);
  }
  return taken;
}

const messages = (occurrences: readonly EventOccurrence[]) =>
  occurrences.map((occurrence) => occurrence.data.message);

describe('events through rondo-gateway', { timeout: scaled(90_000) }, () => {
  it('announces the extension to a modern caller only, and lists every entry’s types namespaced', async () => {
    const client = await connected();
    const legacy = await connected('2025-11-25');
    try {
      expect(client.serverEvents.available).toBe(true);
      expect(legacy.serverEvents.available).toBe(false);
      const listed = await client.serverEvents.listAll();
      expect(listed.map((type) => type.name)).toEqual(['fixture_test_event', 'prolog_test_event']);
      // The fixture offers webhooks too, which the gateway delivers itself (fed by push).
      expect(listed[0]!.delivery).toEqual(['poll', 'push', 'webhook']);
      expect(listed[0]!.payloadSchema).toMatchObject({
        type: 'object',
        properties: { message: { type: 'string' } },
      });
      expect(listed[1]!.description).toBe('A test event raised by emit_test_event');
    } finally {
      await client.close();
      await legacy.close();
    }
  });

  describe.each(['fixture', 'prolog'])('the %s entry', (entry) => {
    const name = `${entry}_test_event`;
    // The Prolog tool's one argument is named by its position, the fixture's by its schema.
    const emit = async (client: Client, message: string) => {
      const args = entry === 'prolog' ? { arg1: message } : { message };
      const result = await client.callTool(`${entry}_emit_test_event`, args);
      expect(result.isError ?? false).toBe(false);
    };

    it('polls from now, then resumes after emits made through the gateway', async () => {
      const client = await connected();
      try {
        const now = await client.serverEvents.poll({ name, cursor: null });
        expect(now.events).toEqual([]);
        expect(typeof now.cursor).toBe('string');
        await emit(client, 'one');
        await emit(client, 'two');
        const after = await client.serverEvents.poll({ name, cursor: now.cursor });
        expect(messages(after.events)).toEqual(['one', 'two']);
        expect(after.events.map((occurrence) => occurrence.name)).toEqual([name, name]);
        expect(after.truncated).toBe(false);
        // Each occurrence's cursor resumes right after it.
        const resumed = await client.serverEvents.poll({ name, cursor: after.events[0]!.cursor });
        expect(messages(resumed.events)).toEqual(['two']);
        const quiet = await client.serverEvents.poll({ name, cursor: after.cursor });
        expect(quiet.events).toEqual([]);
      } finally {
        await client.close();
      }
    });

    it('streams occurrences live, and a cancelled stream gives its upstream stream back', async () => {
      const client = await connected();
      try {
        const start = await client.serverEvents.poll({ name, cursor: null });
        const stream = client.serverEvents.stream({ name, cursor: start.cursor });
        await emit(client, 'live-1');
        const first = await take(stream, 1);
        await emit(client, 'live-2');
        const second = await take(stream, 1);
        expect(messages([...first, ...second])).toEqual(['live-1', 'live-2']);
        expect(second[0]!.name).toBe(name);
        // The stream's cursor is the gateway's: a poll from it has nothing new.
        expect((await client.serverEvents.poll({ name, cursor: stream.cursor })).events).toEqual(
          [],
        );
        await stream.close();
        // Upstream and gateway each hold at most 16 open streams of a client: 20 streams opened and
        // cancelled in turn pass only if each cancellation reached the upstream.
        for (let round = 0; round < 20; round += 1) {
          const again = client.serverEvents.stream({ name, cursor: start.cursor });
          expect(messages(await take(again, 1))).toEqual(['live-1']);
          await again.close();
        }
      } finally {
        await client.close();
      }
    });
  });

  it('refuses a tampered cursor, and one used with another entry’s or type’s subscription', async () => {
    const client = await connected();
    try {
      const fixture = await client.serverEvents.poll({ name: 'fixture_test_event', cursor: null });
      const cursor = fixture.cursor!;
      const tampered = `${cursor.slice(0, -2)}${cursor.endsWith('AA') ? 'BB' : 'AA'}`;
      for (const [name, given] of [
        ['fixture_test_event', tampered],
        ['prolog_test_event', cursor],
      ] as const) {
        const error = await refusal(client.serverEvents.poll({ name, cursor: given }));
        expect(error.code).toBe(-32602);
        expect(error.data).toEqual({ name, field: 'cursor' });
      }
      const streamed = client.serverEvents.stream({ name: 'prolog_test_event', cursor });
      const refused = await refusal(take(streamed, 1));
      expect(refused.data).toEqual({ name: 'prolog_test_event', field: 'cursor' });
      // Other arguments name another subscription.
      const other = await refusal(
        client.serverEvents.poll({ name: 'fixture_test_event', arguments: { x: 1 }, cursor }),
      );
      expect(other.code).toBe(-32602);
      const unknown = await refusal(client.serverEvents.poll({ name: 'test_event', cursor: null }));
      expect(unknown.code).toBe(-32011);
      expect(unknown.data).toEqual({ kind: 'event', name: 'test_event' });
    } finally {
      await client.close();
    }
  });

  it('refuses a webhook subscription from a caller without a principal (-32012)', async () => {
    const client = await connected();
    try {
      const request = {
        name: 'fixture_test_event',
        url: 'https://127.0.0.1:9/hook',
        secret: generateWebhookSecret(),
      };
      const subscribed = await refusal(client.serverEvents.subscribe(request));
      expect(subscribed.code).toBe(-32012);
      expect(subscribed.data).toEqual({ name: 'fixture_test_event', reason: 'unauthenticated' });
      const unsubscribed = await refusal(client.serverEvents.unsubscribe(request));
      expect(unsubscribed.code).toBe(-32012);
      // The gateway keeps serving the other modes.
      expect((await client.serverEvents.poll({ name: 'fixture_test_event' })).events).toEqual([]);
    } finally {
      await client.close();
    }
  });
});
