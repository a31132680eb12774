import { afterEach, describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';
import {
  createMemoryEventStore,
  serveHttp,
  type HttpServerHandle,
  type ServeHttpOptions,
} from '@rondo/transport-http';
import { fakeEndpoint } from './support/fakeEndpoint.js';
import { openStream, parseSse, post, send, type OpenStream } from './support/http.js';

// Issue 18: what one session holds for its streams is capped (docs/limits.md, "What one session
// holds"): 1000 messages waiting for a standalone stream nobody receives, and the events of its
// last 1000 POST streams.

const request = (id: number, method: string, params: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0',
  id,
  method,
  params,
});

describe('the streams one session holds', () => {
  let server: HttpServerHandle;
  const streams: OpenStream[] = [];
  const start = async (options: ServeHttpOptions = {}) => {
    server = await serveHttp(fakeEndpoint(), options);
    const response = await post(server.url, request(1, 'initialize'));
    return { 'mcp-session-id': response.headers['mcp-session-id'] as string };
  };
  afterEach(async () => {
    for (const stream of streams.splice(0)) stream.close();
    await server.close();
  });

  it('keeps the newest 1000 messages for a standalone stream no response receives', async () => {
    const session = await start();
    await post(server.url, request(2, 'notifyPeer', { count: 1005 }), session);
    const standalone = await openStream(server.url, {
      method: 'GET',
      headers: { ...session, accept: 'text/event-stream' },
    });
    streams.push(standalone);
    const first = JSON.parse((await standalone.next()).data);
    expect(first.params.data).toBe(6);
    let last = first;
    for (let n = 1; n < 1000; n += 1) last = JSON.parse((await standalone.next()).data);
    expect(last.params.data).toBe(1005);
    await expect(standalone.next(200)).rejects.toThrow('no SSE event in time');
  });

  it(
    'forgets the events of POST streams older than the last 1000',
    { timeout: scaled(60_000) },
    async () => {
      // A store roomy enough that only the session's count of streams forgets events.
      const session = await start({
        eventStore: createMemoryEventStore({ maxEventsPerSession: 10_000, maxEvents: 100_000 }),
      });
      const eventIds: string[] = [];
      for (let batch = 0; batch < 1001; batch += 25) {
        const answers = await Promise.all(
          Array.from({ length: Math.min(25, 1001 - batch) }, (_, n) =>
            post(server.url, request(10 + batch + n, 'stream', { steps: 1, delayMs: 0 }), session),
          ),
        );
        for (const answer of answers) eventIds.push(parseSse(answer.text)[0]!.id!);
      }
      const resume = (id: string) =>
        send(server.url, {
          method: 'GET',
          headers: { ...session, accept: 'text/event-stream', 'last-event-id': id },
        });
      // The priming event of the first stream: its stream is the one forgotten.
      const [oldest, second] = eventIds.sort((a, b) => streamNumber(a) - streamNumber(b));
      expect((await resume(oldest!)).status).toBe(400);
      expect((await resume(second!)).status).toBe(200);
      const newest = eventIds.at(-1)!;
      const replayed = await resume(newest);
      expect(replayed.status).toBe(200);
      expect(parseSse(replayed.text).map((event) => JSON.parse(event.data).result)).toContainEqual({
        streamed: true,
      });
    },
  );
});

/** The stream number of an event id `<session>.<stream>:<seq>`. */
function streamNumber(eventId: string): number {
  return Number(/\.(\d+):\d+$/.exec(eventId)?.[1]);
}
