import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';
import { createPrologProvider } from '@rondo/logtalk-bridge';
import {
  expectPollResult,
  notification,
  OCCURRENCE_FIELDS,
  openStream,
  rpc,
  type WireMessage,
} from '../../packages/events/test/support.js';
import { startHostProcess, type HostProcess } from './support/hostProcess.js';
import { logtalkHomeForTests, requireBuiltHost } from './support/paths.js';

// Issue 42, done-when 1 (the Prolog provider): event types declared with events/1 and raised with
// mcp_emit/2,3, served by `rondo-logtalk --transport http`: events/list, events/poll (from now,
// resume, replay, truncated, the three errors) and events/stream on the 2026-07-28 wire, with the
// spec's field lists asserted (ext-events publishes no JSON schema), from an SWI module and a
// Logtalk object alike; a malformed declaration is a file:line problem at start.

logtalkHomeForTests();
const dir = mkdtempSync(join(tmpdir(), 'rondo-prolog-events-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const EVENTS = `[
    event(test_event, [
        description("A test event raised by emit_test_event"),
        payload({type-object, properties-{message-{type-string}}, required-[message]}),
        replay([count(5)])
    ]),
    event(channel_message, [
        description("A message posted in a channel"),
        title("Channel message"),
        input({type-object, properties-{channel-{type-string}}}),
        payload({type-object, properties-{channel-{type-string}, text-{type-string}}})
    ]),
    event(push_only, [description("Delivered on push streams only"), modes([push])])
]`;

const MODULE = `:- module(eventful, []).

events(${EVENTS}).

tools([tool(emit_test_event, emit_test_event, 1), tool(post, post, 2), tool(emit_bad, emit_bad, 0)]).

:- mode(emit_test_event(+string), one).
emit_test_event(Message) :- mcp_emit(test_event, {message-Message}).

:- mode(post(+string, +string), one).
post(Channel, Text) :-
    mcp_emit(channel_message, {channel-Channel, text-Text}, [match({channel-Channel})]).

% Data its payload schema refuses: dropped by Node with a warning, the call still answers.
emit_bad :- mcp_emit(test_event, {message-42}).
`;

const OBJECT = `:- object(eventful_object, implements([mcp_tool_protocol, mcp_event_protocol])).

\tevents(${EVENTS}).

\ttools([tool(emit_test_event, emit_test_event, 1)]).

\t:- public(emit_test_event/1).
\t:- mode(emit_test_event(+atom), one).
\temit_test_event(Message) :- {mcp_emit(test_event, {message-Message})}.

:- end_object.
`;

function write(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const hosts: HostProcess[] = [];
afterEach(async () => {
  for (const host of hosts.splice(0)) await host.stop();
});

async function served(file: string): Promise<HostProcess> {
  const host = await startHostProcess('http', [file]);
  hosts.push(host);
  return host;
}

/** Calls a tool of the provider over the modern wire; it must answer without a tool error. */
async function call(url: string, name: string, args: object): Promise<WireMessage> {
  const answer = await rpc(url, 'tools/call', { name, arguments: args });
  expect(answer.error).toBeUndefined();
  expect(answer.result?.isError, JSON.stringify(answer.result)).not.toBe(true);
  return answer;
}

const poll = (url: string, params: object) => rpc(url, 'events/poll', params);

describe(
  'events of a Prolog provider through rondo-logtalk over HTTP',
  { timeout: scaled(90_000) },
  () => {
    it('lists the declared types, polls from now, resumes, replays, says truncated, and refuses the three errors', async () => {
      const host = await served(write('eventful.pl', MODULE));
      const url = host.url;
      const discovered = await rpc(url, 'server/discover', {});
      expect(discovered.result!.capabilities.extensions['io.modelcontextprotocol/events']).toEqual(
        {},
      );

      const listed = (await rpc(url, 'events/list', {})).result!.events as unknown as Record<
        string,
        unknown
      >[];
      expect(listed.map((type) => type.name)).toEqual([
        'test_event',
        'channel_message',
        'push_only',
      ]);
      for (const type of listed)
        expect(Object.keys(type).sort()).toEqual(
          expect.arrayContaining([
            'name',
            'description',
            'delivery',
            'inputSchema',
            'payloadSchema',
          ]),
        );
      expect(listed[0]).toMatchObject({
        description: 'A test event raised by emit_test_event',
        delivery: ['poll', 'push'],
        inputSchema: { type: 'object', properties: {} },
        payloadSchema: { type: 'object', required: ['message'] },
      });
      expect(listed[1]).toMatchObject({ title: 'Channel message' });
      expect(listed[2]).toMatchObject({ delivery: ['push'], payloadSchema: { type: 'object' } });

      // From now: nothing, and a cursor that resumes right after it.
      const now = await poll(url, { name: 'test_event', arguments: {}, cursor: null });
      expectPollResult(now.result);
      expect(now.result).toMatchObject({ events: [], truncated: false, hasMore: false });
      await call(url, 'emit_test_event', { arg1: 'after' });
      const resumed = await poll(url, { name: 'test_event', cursor: now.result!.cursor });
      expectPollResult(resumed.result);
      expect(resumed.result!.events).toMatchObject([
        { name: 'test_event', data: { message: 'after' } },
      ]);
      expect(resumed.result!.events[0]!.eventId).toMatch(/^evt_/);

      // Data the payload schema refuses is dropped with a warning; the call still answers.
      await call(url, 'emit_bad', {});
      await expect

        .poll(() => host.stderr(), { timeout: scaled(5000) })
        .toMatch(/dropped an occurrence of "test_event"/);

      // Replay within the buffer (count 5), then truncated once it moved past the cursor.
      for (let n = 1; n <= 4; n += 1) await call(url, 'emit_test_event', { arg1: `m${n}` });
      const replayed = await poll(url, { name: 'test_event', cursor: resumed.result!.cursor });
      expect(replayed.result!.truncated).toBe(false);
      expect(replayed.result!.events.map((event) => event.data.message)).toEqual([
        'm1',
        'm2',
        'm3',
        'm4',
      ]);
      for (let n = 5; n <= 8; n += 1) await call(url, 'emit_test_event', { arg1: `m${n}` });
      const late = await poll(url, { name: 'test_event', cursor: resumed.result!.cursor });
      expectPollResult(late.result);
      expect(late.result!.truncated).toBe(true);
      expect(late.result!.events.map((event) => event.data.message)).toEqual([
        'm4',
        'm5',
        'm6',
        'm7',
        'm8',
      ]);

      // mcp_emit/3's match: only the subscriptions whose arguments fit get it.
      const general = await poll(url, {
        name: 'channel_message',
        arguments: { channel: 'general' },
        cursor: null,
      });
      await call(url, 'post', { arg1: 'general', arg2: 'hi' });
      await call(url, 'post', { arg1: 'random', arg2: 'yo' });
      const heard = await poll(url, {
        name: 'channel_message',
        arguments: { channel: 'general' },
        cursor: general.result!.cursor,
      });
      expect(heard.result!.events.map((event) => event.data.text)).toEqual(['hi']);

      // The three errors the spec names.
      const unknown = await poll(url, { name: 'no_such_event', cursor: null });
      expect(unknown.error?.code).toBe(-32011);
      const badArguments = await poll(url, {
        name: 'channel_message',
        arguments: { channel: 7 },
        cursor: null,
      });
      expect(badArguments.error?.code).toBe(-32602);
      const badCursor = await poll(url, { name: 'test_event', cursor: 'not-a-cursor' });
      expect(badCursor.error?.code).toBe(-32602);
      const notPollable = await poll(url, { name: 'push_only', cursor: null });
      expect(notPollable.error?.code).toBe(-32014);
    });

    it('streams: active, the replay after the cursor, then live occurrences as workers raise them', async () => {
      const { url } = await served(write('streamed.pl', MODULE));
      const start = await poll(url, { name: 'test_event', cursor: null });
      await call(url, 'emit_test_event', { arg1: 'replayed' });
      const stream = await openStream(url, {
        name: 'test_event',
        arguments: {},
        cursor: start.result!.cursor,
      });
      try {
        expect(stream.status).toBe(200);
        await stream.waitFor(notification('notifications/events/active'));
        await stream.waitFor(notification('notifications/events/event'));
        await call(url, 'emit_test_event', { arg1: 'live' });
        const events = await stream.waitFor(notification('notifications/events/event'), 2);
        expect(events.map((event) => event.params!.data!.message)).toEqual(['replayed', 'live']);
        for (const event of events)
          expect(
            Object.keys(event.params!)
              .filter((key) => key !== '_meta')
              .sort(),
          ).toEqual([...OCCURRENCE_FIELDS].sort());
      } finally {
        stream.abort();
        await stream.ended;
      }
    });

    it('serves the events of a Logtalk object alike', async () => {
      const { url } = await served(write('eventful_object.lgt', OBJECT));
      const listed = (await rpc(url, 'events/list', {})).result!.events as unknown as {
        name: string;
      }[];
      expect(listed.map((type) => type.name)).toEqual([
        'test_event',
        'channel_message',
        'push_only',
      ]);
      const now = await poll(url, { name: 'test_event', cursor: null });
      await call(url, 'emit_test_event', { arg1: 'from_logtalk' });
      const resumed = await poll(url, { name: 'test_event', cursor: now.result!.cursor });
      expect(resumed.result!.events.map((event) => event.data.message)).toEqual(['from_logtalk']);
    });
  },
);

describe('a malformed events/1 declaration', { timeout: scaled(60_000) }, () => {
  it('is a file:line problem at start, each item with what was expected', async () => {
    const file = write(
      'bad_events.pl',
      `:- module(bad_events, []).

events([
    event('bad name!', [description("x")]),
    event(no_description, []),
    event(bad_modes, [description("x"), modes([poll, carrier_pigeon])]),
    event(bad_payload, [description("x"), payload(object)]),
    event(bad_schema, [description("x"), payload({type-nothing})]),
    not_an_event
]).
`,
    );
    // `rondo-logtalk check` reports the same lines and exits 1.
    const checked = await new Promise<{ code: number | null; out: string }>((resolve) => {
      execFile(
        process.execPath,
        [requireBuiltHost(), 'check', file],
        { env: { ...process.env } },
        (error, stdout, stderr) =>
          resolve({
            code: error ? ((error as { code?: number }).code ?? 1) : 0,
            out: stdout + stderr,
          }),
      );
    });
    expect(checked.code).toBe(1);
    expect(checked.out).toMatch(
      /bad_events\.pl:3: event no_description has no description\(Text\)/,
    );
    expect(checked.out).toMatch(/bad_events\.pl:3: event type "bad_schema" payload/);

    const failure = await createPrologProvider({
      files: [file],
      workers: 1,
      onLog: () => undefined,
    }).then(
      async (provider) => {
        await provider.close();
        return undefined;
      },
      (error: unknown) => error as Error,
    );
    const lines = failure!.message.split('\n').filter((line) => line.includes('bad_events.pl:3:'));
    expect(lines.join('\n')).toMatch(/event name 'bad name!' breaks the naming rule/);
    expect(lines.join('\n')).toMatch(/event no_description has no description\(Text\)/);
    expect(lines.join('\n')).toMatch(/event bad_modes: modes\(\[poll,carrier_pigeon\]\)/);
    expect(lines.join('\n')).toMatch(
      /event bad_payload: payload\(object\) is not a JSON Schema object/,
    );
    expect(lines.join('\n')).toMatch(/event type "bad_schema" payload/);
    expect(lines.join('\n')).toMatch(
      /events\/1 item not_an_event is not event\(Name, Properties\)/,
    );
  });
});
