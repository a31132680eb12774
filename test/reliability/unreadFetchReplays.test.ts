import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';
import {
  createFetchHandler,
  createMemoryEventStore,
  type FetchHandler,
} from '@rondo/transport-http';
import { chattyEndpoint } from './support/chattyEndpoint.js';
import { initialize, legacy } from './support/messages.js';

// Issue 31, point 3, on the fetch edge (Workers, Deno, Bun, Hono): a `Last-Event-ID` replay of a
// finished stream ends at once, so what its client has not read waits in the `Response` body after
// the end. Such a body used to hold the whole stream, encoded, until its client went away; now it
// holds what the reader is ahead by (64 KiB), the rest waits as the stored events, and an unread
// finished replay is cut by the unread-bytes rule like a live stream: its body errors within two
// windows. Bounded: in-process `Request`s, a 12 MiB stream, 10 replays, about 5 s.

const REPLAYS = 10;
const EVENTS = 48;
const EVENT_KIB = 256;
const STREAM_BYTES = EVENTS * EVENT_KIB * 1024;
const WINDOW_MS = 500;
const MIB = 1024 * 1024;

const POST_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
};

describe(`${REPLAYS} unread replays of a finished ${STREAM_BYTES / MIB} MiB stream on the fetch handler`, () => {
  let handler: FetchHandler;
  let session: Record<string, string>;
  let firstEventId = '';
  const call = (method: string, headers: Record<string, string>, body?: unknown) =>
    handler(
      new Request('http://127.0.0.1/mcp', {
        method,
        headers,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
    );

  beforeAll(async () => {
    const endpoint = await chattyEndpoint('unread-fetch', EVENTS, EVENT_KIB);
    handler = createFetchHandler(endpoint, {
      maxStreamBacklogBytes: 256 * 1024,
      streamBacklogWindowMs: WINDOW_MS,
      eventStore: createMemoryEventStore({
        maxEventBytesPerStream: 2 * STREAM_BYTES,
        maxEventBytesPerSession: 2 * STREAM_BYTES,
        maxEventBytes: 2 * STREAM_BYTES,
      }),
    });
    const init = await call('POST', POST_HEADERS, initialize(1));
    await init.text();
    session = { 'mcp-session-id': init.headers.get('mcp-session-id') ?? '' };
    await (
      await call('POST', { ...POST_HEADERS, ...session }, legacy(2, 'notifications/initialized'))
    ).text();
    const chatty = await call(
      'POST',
      { ...POST_HEADERS, ...session },
      legacy(3, 'tools/call', { name: 'chatty', arguments: {}, _meta: { progressToken: 't' } }),
    );
    const whole = await chatty.text();
    expect(whole.length).toBeGreaterThan(STREAM_BYTES);
    firstEventId = /^id: (.+)$/m.exec(whole)![1]!;
  }, scaled(60_000));
  afterAll(() => handler.close());

  it(
    'holds no copy of the stream per replay, and errors each unread body within two windows',
    async () => {
      const before = process.memoryUsage().arrayBuffers;
      const started = Date.now();
      const bodies: ReadableStream<Uint8Array>[] = [];
      for (let n = 0; n < REPLAYS; n += 1) {
        const replay = await call('GET', {
          ...session,
          accept: 'text/event-stream',
          'last-event-id': firstEventId,
        });
        expect(replay.status).toBe(200);
        bodies.push(replay.body!);
      }
      const grown = process.memoryUsage().arrayBuffers - before;
      console.info(
        `unread fetch replays: buffers +${(grown / MIB).toFixed(1)} MiB with ${REPLAYS} replays of ` +
          `${STREAM_BYTES / MIB} MiB open`,
      );
      // Before: each body held the whole stream encoded (+120 MiB); now the bodies hold 64 KiB each.
      expect(grown).toBeLessThan((REPLAYS * STREAM_BYTES) / 8);
      await new Promise((resolve) => setTimeout(resolve, 2 * WINDOW_MS + 300));
      for (const body of bodies)
        await expect(body.getReader().read()).rejects.toThrow('did not read');
      console.info(`unread fetch replays: all ${REPLAYS} cut by ${Date.now() - started} ms`);
    },
    scaled(30_000),
  );

  it(
    'gives a replay its reader takes the whole stream, ended',
    async () => {
      const replay = await call('GET', {
        ...session,
        accept: 'text/event-stream',
        'last-event-id': firstEventId,
      });
      const body = await replay.text();
      expect(body.length).toBeGreaterThan(STREAM_BYTES - EVENT_KIB * 1024);
      expect(body).toContain('"text":"done"');
    },
    scaled(30_000),
  );
});
