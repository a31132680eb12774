import { createServer as createNodeServer, request, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';
import { createHttpHandler, createMemoryEventStore } from '@rondo/transport-http';
import { chattyEndpoint } from './support/chattyEndpoint.js';
import { initialize, legacy } from './support/messages.js';

// Issue 31, point 3: a `Last-Event-ID` replay of a finished stream is written at once and ended,
// so its bytes wait on the connection after the end. Twenty clients that ask for such a replay
// and never read it are each cut by the unread-bytes rule (more than `maxStreamBacklogBytes`
// unread through a whole `streamBacklogWindowMs`, less than that read in it: between one and two
// windows after its opening),
// and while they wait the server holds no copy of the stream per replay. A client reading the same
// replay slowly but steadily, at about 1.5 MB/s, still gets all of it. Bounded: 21 connections to
// 127.0.0.1, a 12 MiB stream, about 20 s.

const REPLAYS = 20;
const EVENTS = 48;
const EVENT_KIB = 256;
const STREAM_BYTES = EVENTS * EVENT_KIB * 1024;
const MAX_UNREAD = 256 * 1024;
// Long enough that a steady reader's progress shows within one window: the kernel's socket buffers
// on loopback take megabytes at once and free their room in bursts of about 1.5 MB.
const WINDOW_MS = 2000;
const MIB = 1024 * 1024;

/** When the server began and closed each replay's response, by the order they were asked for. */
const replayOpenedAt = new Map<number, number>();
const replayClosedAt = new Map<number, number>();
let replayCount = 0;
let port = 0;
let server: ReturnType<typeof createNodeServer>;
let session: Record<string, string>;
const held: IncomingMessage[] = [];

function send(
  method: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/mcp', method, headers });
    req.once('error', reject);
    req.once('response', resolve);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

function readAll(res: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = '';
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => (body += chunk));
    res.once('end', () => resolve(body));
    res.once('error', reject);
  });
}

const POST_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
};

const replayOf = (eventId: string) =>
  send('GET', { ...session, accept: 'text/event-stream', 'last-event-id': eventId });

/** Resident memory now, after a collection when the process allows one. */
function residentBytes(): number {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().rss;
}

describe(`${REPLAYS} unread replays of a finished ${STREAM_BYTES / MIB} MiB stream`, () => {
  let firstEventId = '';
  beforeAll(async () => {
    const endpoint = await chattyEndpoint('unread-replays', EVENTS, EVENT_KIB);
    const handler = createHttpHandler(endpoint, {
      maxStreamBacklogBytes: MAX_UNREAD,
      streamBacklogWindowMs: WINDOW_MS,
      eventStore: createMemoryEventStore({
        maxEventBytesPerStream: 2 * STREAM_BYTES,
        maxEventBytesPerSession: 2 * STREAM_BYTES,
        maxEventBytes: 2 * STREAM_BYTES,
      }),
    });
    server = createNodeServer((req, res) => {
      if (req.headers['last-event-id'] !== undefined) {
        const index = replayCount++;
        replayOpenedAt.set(index, Date.now());
        res.once('close', () => replayClosedAt.set(index, Date.now()));
      }
      handler(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    const init = await send('POST', POST_HEADERS, initialize(1));
    await readAll(init);
    session = { 'mcp-session-id': String(init.headers['mcp-session-id']) };
    await readAll(
      await send('POST', { ...POST_HEADERS, ...session }, legacy(2, 'notifications/initialized')),
    );
    const call = await send(
      'POST',
      { ...POST_HEADERS, ...session },
      legacy(3, 'tools/call', { name: 'chatty', arguments: {}, _meta: { progressToken: 't' } }),
    );
    const whole = await readAll(call);
    expect(whole.length).toBeGreaterThan(STREAM_BYTES);
    firstEventId = /^id: (.+)$/m.exec(whole)![1]!;
  }, scaled(60_000));
  afterAll(async () => {
    for (const res of held) res.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it(
    'cuts each unread replay within two windows, holding no copy of the stream meanwhile',
    async () => {
      const before = residentBytes();
      for (let n = 0; n < REPLAYS; n += 1) {
        const res = await replayOf(firstEventId);
        expect(res.statusCode).toBe(200);
        res.pause();
        res.on('error', () => undefined);
        held.push(res);
      }
      const grown = residentBytes() - before;
      console.info(
        `unread replays: memory +${(grown / MIB).toFixed(0)} MiB with ${REPLAYS} replays of ` +
          `${STREAM_BYTES / MIB} MiB open (${((REPLAYS * STREAM_BYTES) / MIB).toFixed(0)} MiB unread)`,
      );
      // What the replays wait for is the stored stream itself, not a copy per replay.
      expect.soft(grown).toBeLessThan((REPLAYS * STREAM_BYTES) / 4);
      // Two windows after the last opened, plus slack for a loaded machine.
      const deadline = Date.now() + 2 * WINDOW_MS + 5000;
      while (replayClosedAt.size < REPLAYS && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 50));
      const after = [...replayClosedAt].map(([index, at]) => at - replayOpenedAt.get(index)!);
      console.info(
        `unread replays: ${replayClosedAt.size} of ${REPLAYS} cut, ` +
          `${Math.min(...after)}–${Math.max(...after)} ms after each opened ` +
          `(window ${WINDOW_MS} ms)`,
      );
      expect(replayClosedAt.size).toBe(REPLAYS);
      // Within two windows of its opening, give or take a loaded machine's timers.
      expect(Math.max(...after)).toBeLessThan(2 * WINDOW_MS + 2000);
    },
    scaled(60_000),
  );

  it(
    'does not cut a replay its client reads slowly but steadily, and serves the session',
    async () => {
      const res = await replayOf(firstEventId);
      const index = replayCount - 1;
      const started = Date.now();
      // About 1.5 MB/s: far slower than the stream was written, far faster than the limit per window.
      const body = await new Promise<string>((resolve, reject) => {
        let received = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          received += chunk;
          res.pause();
          setTimeout(() => res.resume(), Math.ceil(chunk.length / 1500));
        });
        res.once('end', () => resolve(received));
        res.once('error', reject);
      });
      console.info(`steady reader: ${body.length} bytes in ${Date.now() - started} ms`);
      expect(body.length).toBeGreaterThan(STREAM_BYTES);
      expect(body).toContain('"text":"done"');
      expect(replayClosedAt.has(index)).toBe(true);
      const echo = await send('POST', { ...POST_HEADERS, ...session }, legacy(4, 'ping'));
      expect(echo.statusCode).toBe(200);
      await readAll(echo);
    },
    scaled(60_000),
  );
});
