import { afterEach, describe, expect, it } from 'vitest';
import type { HttpServerHandle, ServeHttpOptions } from '@rondo/transport-http';
import { serveHttp } from './support/edges.js';
import { fakeEndpoint } from './support/fakeEndpoint.js';
import { openStream, parseSse, post, send, type OpenStream } from './support/http.js';

// SSE polling (SEP-1699): a stream of a session whose client resumes streams may close before its
// answer; the client resumes it with a GET and Last-Event-ID. Older clients get neither the
// priming event nor an early close.

const request = (id: number, method: string, params: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0',
  id,
  method,
  params,
});

describe('SSE polling on legacy sessions', () => {
  let server: HttpServerHandle;
  const streams: OpenStream[] = [];
  const start = async (options: ServeHttpOptions = {}, resumes = true) => {
    server = await serveHttp(fakeEndpoint(), options);
    const response = await post(server.url, request(1, 'initialize', { resumes }));
    return { 'mcp-session-id': response.headers['mcp-session-id'] as string };
  };
  const resume = (session: Record<string, string>, lastEventId: string) =>
    send(server.url, {
      method: 'GET',
      headers: { ...session, accept: 'text/event-stream', 'last-event-id': lastEventId },
    });
  afterEach(async () => {
    for (const stream of streams.splice(0)) stream.close();
    await server.close();
  });

  it('closes a POST stream the handler closes and resumes it, answer included, on GET', async () => {
    const session = await start();
    const closed = await post(server.url, request(2, 'closeStream', { delayMs: 50 }), session);
    expect(closed.headers['content-type']).toBe('text/event-stream');
    const events = parseSse(closed.text);
    // The priming event first (an id, empty data, the retry delay), then the message: no answer.
    expect(events[0]).toMatchObject({ data: '', retry: 1000 });
    expect(events[0]!.id).toBeDefined();
    expect(events.map((event) => event.data && JSON.parse(event.data).method)).toEqual([
      '',
      'notifications/message',
    ]);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const resumed = await resume(session, events.at(-1)!.id!);
    expect(resumed.status).toBe(200);
    expect(parseSse(resumed.text).map((event) => JSON.parse(event.data))).toEqual([
      { jsonrpc: '2.0', id: 2, result: { resumed: true } },
    ]);
  });

  it('resumes a stream from its priming event while the request still runs', async () => {
    const session = await start();
    const closed = await post(server.url, request(2, 'closeStream', { delayMs: 150 }), session);
    const primed = parseSse(closed.text)[0]!;
    const resumed = await openStream(server.url, {
      method: 'GET',
      headers: { ...session, accept: 'text/event-stream', 'last-event-id': primed.id! },
    });
    streams.push(resumed);
    expect(JSON.parse((await resumed.next()).data).method).toBe('notifications/message');
    expect(JSON.parse((await resumed.next()).data)).toMatchObject({ id: 2, result: {} });
  });

  it('sends a session whose client does not resume streams no empty-data event and no early close', async () => {
    const session = await start({}, false);
    const answered = await post(server.url, request(2, 'closeStream'), session);
    const events = parseSse(answered.text);
    expect(events.every((event) => event.data !== '')).toBe(true);
    expect(events.map((event) => JSON.parse(event.data).id ?? 'message')).toEqual(['message', 2]);
    const streamed = await post(server.url, request(3, 'stream', { steps: 2 }), session);
    expect(parseSse(streamed.text).every((event) => event.data !== '')).toBe(true);
  });

  it('closes POST streams running past maxStreamDurationMs; the rest comes on GET', async () => {
    const session = await start({ maxStreamDurationMs: 60 });
    const cut = await post(server.url, request(2, 'stream', { steps: 6, delayMs: 30 }), session);
    const seen = parseSse(cut.text);
    expect(seen.some((event) => event.data.includes('"result"'))).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 250));
    const rest = parseSse((await resume(session, seen.at(-1)!.id!)).text).map((event) =>
      JSON.parse(event.data),
    );
    const all = [
      ...seen.filter((event) => event.data).map((event) => JSON.parse(event.data)),
      ...rest,
    ];
    expect(all.map((message) => message.params?.progress ?? message.result)).toEqual([
      1,
      2,
      3,
      4,
      5,
      6,
      { streamed: true },
    ]);
  });

  it('closes the standalone stream on request; its messages wait for the next GET', async () => {
    const session = await start();
    const getStandalone = async () => {
      const stream = await openStream(server.url, {
        method: 'GET',
        headers: { ...session, accept: 'text/event-stream' },
      });
      streams.push(stream);
      return stream;
    };
    expect((await getStandalone()).status).toBe(200);
    expect((await getStandalone()).status).toBe(409);
    expect((await post(server.url, request(3, 'closeSessionStream'), session)).status).toBe(200);
    await post(server.url, request(4, 'notifyPeer', { text: 'while away' }), session);
    // The first response is closed, so a new GET is accepted and gets what was sent meanwhile.
    const again = await getStandalone();
    expect(again.status).toBe(200);
    expect(JSON.parse((await again.next()).data).params.data).toBe('while away');
  });

  it('keeps replay to the stream of the session that owns it', async () => {
    const session = await start();
    const closed = await post(server.url, request(2, 'closeStream', { delayMs: 10 }), session);
    const other = await post(server.url, request(1, 'initialize'));
    const eventId = parseSse(closed.text).at(-1)!.id!;
    const foreign = await resume(
      { 'mcp-session-id': other.headers['mcp-session-id'] as string },
      eventId,
    );
    expect(foreign.status).toBe(400);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const own = await resume(session, eventId);
    expect(parseSse(own.text).map((event) => JSON.parse(event.data).id)).toEqual([2]);
  });
});
