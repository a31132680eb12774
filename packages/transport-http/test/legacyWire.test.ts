import { afterEach, describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';
import { type HttpServerHandle, type HttpTransportOptions } from '@rondo/transport-http';
import { serveHttp } from './support/edges.js';
import { fakeEndpoint, type FakeEndpoint } from './support/fakeEndpoint.js';
import { openStream, parseSse, post, send, until, JSON_POST } from './support/http.js';

const request = (id: number, method: string, params: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0',
  id,
  method,
  params,
});

describe('legacy wire (sessions)', () => {
  let endpoint: FakeEndpoint;
  let server: HttpServerHandle;
  const start = async (options: HttpTransportOptions = {}) => {
    endpoint = fakeEndpoint();
    server = await serveHttp(endpoint, options);
  };
  const initialize = async () => {
    const response = await post(server.url, request(1, 'initialize'));
    const sessionId = response.headers['mcp-session-id'] as string;
    return { response, sessionId, headers: { 'mcp-session-id': sessionId } };
  };
  afterEach(() => server.close());

  it('opens a session with a random visible-ASCII Mcp-Session-Id when the connection becomes stateful', async () => {
    await start();
    const first = await initialize();
    const second = await initialize();
    expect(first.response.status).toBe(200);
    expect(first.sessionId).toMatch(/^[\x21-\x7E]{32,}$/);
    expect(second.sessionId).not.toBe(first.sessionId);
  });

  it('routes later POSTs with the header to the session connection', async () => {
    await start();
    const { headers } = await initialize();
    const response = await post(server.url, request(2, 'echo'), headers);
    expect(response.json()).toMatchObject({ id: 2, result: {} });
    expect(endpoint.connections).toHaveLength(1);
    expect(endpoint.connections[0]!.received).toHaveLength(2);
  });

  it("tells the exchange of a session's request the session's Mcp-Session-Id", async () => {
    await start();
    const { sessionId, headers } = await initialize();
    const response = await post(server.url, request(2, 'echo'), headers);
    expect(response.json().result.sessionId).toBe(sessionId);
    const stateless = await post(server.url, request(3, 'echo'));
    expect(stateless.json().result.sessionId).toBeNull();
  });

  it('hands a request without Mcp-Session-Id to a fresh stateless connection, closed afterwards', async () => {
    await start();
    const response = await post(server.url, request(2, 'echo'));
    expect(response.status).toBe(200);
    expect(response.headers['mcp-session-id']).toBeUndefined();
    expect(endpoint.connections.at(-1)?.closed).toBe(true);
  });

  it('answers an unknown session with 404', async () => {
    await start();
    const response = await post(server.url, request(2, 'echo'), {
      'mcp-session-id': 'no-such-session',
    });
    expect(response.status).toBe(404);
    expect(response.json().error.code).toBe(-32600);
  });

  it('keeps error statuses at 200 inside a session (the legacy wire carries errors in the body)', async () => {
    await start();
    const { headers } = await initialize();
    const response = await post(server.url, request(2, 'nope'), headers);
    expect(response.status).toBe(200);
    expect(response.json().error.code).toBe(-32601);
  });

  it('ends the session on DELETE, closing its connection; the id then gets 404', async () => {
    await start();
    const { headers } = await initialize();
    const deleted = await send(server.url, { method: 'DELETE', headers });
    expect(deleted.status).toBe(204);
    expect(endpoint.connections[0]!.closed).toBe(true);
    expect((await post(server.url, request(3, 'echo'), headers)).status).toBe(404);
    expect((await send(server.url, { method: 'DELETE', headers })).status).toBe(404);
  });

  it('delivers session messages on the GET stream, buffering them while no stream is open', async () => {
    await start();
    const { headers } = await initialize();
    await post(server.url, request(2, 'notifyPeer', { text: 'early' }), headers);
    const stream = await openStream(server.url, {
      method: 'GET',
      headers: { ...headers, accept: 'text/event-stream' },
    });
    expect(stream.status).toBe(200);
    expect(JSON.parse((await stream.next()).data).params.data).toBe('early');
    await post(server.url, request(3, 'notifyPeer', { text: 'live' }), headers);
    const live = await stream.next();
    expect(JSON.parse(live.data).params.data).toBe('live');
    expect(live.id).toBeDefined();
    stream.close();
  });

  it('carries a server-to-client request on the call SSE stream; the answer POST gets 202', async () => {
    await start();
    const { headers } = await initialize();
    const stream = await openStream(server.url, {
      headers: { ...JSON_POST, ...headers },
      body: JSON.stringify(request(5, 'ask')),
    });
    expect(stream.headers['content-type']).toBe('text/event-stream');
    const priming = await stream.next();
    expect(priming).toMatchObject({ data: '', retry: 1000 });
    expect(priming.id).toBeDefined();
    const asked = JSON.parse((await stream.next()).data);
    expect(asked.method).toBe('elicitation/create');
    const answer = await post(
      server.url,
      { jsonrpc: '2.0', id: asked.id, result: { action: 'accept' } },
      headers,
    );
    expect(answer.status).toBe(202);
    const final = JSON.parse((await stream.next()).data);
    expect(final).toMatchObject({ id: 5, result: { answer: { action: 'accept' } } });
  });

  it('resumes a dropped call stream from Last-Event-ID without cancelling the call', async () => {
    await start({ sseRetryMs: 10 });
    const { headers } = await initialize();
    const stream = await openStream(server.url, {
      headers: { ...JSON_POST, ...headers },
      body: JSON.stringify(request(6, 'stream', { steps: 4, delayMs: 40 })),
    });
    await stream.next(); // priming
    const first = await stream.next();
    expect(JSON.parse(first.data).params.progress).toBe(1);
    stream.close();
    await new Promise((resolve) => setTimeout(resolve, 200));
    const resumed = await send(server.url, {
      method: 'GET',
      headers: { ...headers, accept: 'text/event-stream', 'last-event-id': first.id! },
    });
    const replayed = parseSse(resumed.text).map((event) => JSON.parse(event.data));
    expect(replayed.map((message) => message.params?.progress ?? 'final')).toEqual([
      2,
      3,
      4,
      'final',
    ]);
    expect(replayed[3]).toMatchObject({ id: 6, result: { streamed: true } });
    expect(endpoint.connections[0]!.aborted).toEqual([]);
  });

  it('refuses a Last-Event-ID of another session with 400', async () => {
    await start();
    const one = await initialize();
    const two = await initialize();
    const response = await post(server.url, request(2, 'stream', { steps: 1 }), one.headers);
    const eventId = parseSse(response.text)[0]!.id!;
    const foreign = await send(server.url, {
      method: 'GET',
      headers: { ...two.headers, accept: 'text/event-stream', 'last-event-id': eventId },
    });
    expect(foreign.status).toBe(400);
  });

  it('closes a session that stays idle past the timeout', async () => {
    await start({ sessionIdleTimeoutMs: 50 });
    const { headers } = await initialize();
    await until(() => endpoint.connections[0]!.closed);
    expect((await post(server.url, request(2, 'echo'), headers)).status).toBe(404);
  });

  it('does not expire a session while its GET stream is open', async () => {
    // The GET must arrive within the idle timeout of the initialize: on a busy machine that gap
    // alone can pass 50 ms, so the timeout scales with the load; the stream outlives it thrice.
    const idleMs = scaled(50);
    await start({ sessionIdleTimeoutMs: idleMs });
    const { headers } = await initialize();
    const stream = await openStream(server.url, {
      method: 'GET',
      headers: { ...headers, accept: 'text/event-stream' },
    });
    await new Promise((resolve) => setTimeout(resolve, 3 * idleMs));
    expect(endpoint.connections[0]!.closed).toBe(false);
    stream.close();
    await until(() => endpoint.connections[0]!.closed);
  });
});
