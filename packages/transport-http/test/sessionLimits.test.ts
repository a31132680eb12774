import { afterEach, describe, expect, it } from 'vitest';
import { type HttpServerHandle, type HttpTransportOptions } from '@rondo/transport-http';
import { serveHttp } from './support/edges.js';
import { fakeEndpoint, type FakeEndpoint } from './support/fakeEndpoint.js';
import { openStream, post, type OpenStream } from './support/http.js';

const request = (id: number, method: string) => ({ jsonrpc: '2.0', id, method, params: {} });

describe('session caps', () => {
  let endpoint: FakeEndpoint;
  let server: HttpServerHandle;
  let resource = '';
  const streams: OpenStream[] = [];
  const start = async (options: HttpTransportOptions) => {
    endpoint = fakeEndpoint();
    server = await serveHttp(endpoint, options);
    resource = server.url;
  };
  const bearer = (token: string | undefined) =>
    token ? { authorization: `Bearer ${token}` } : ({} as Record<string, string>);
  /** Opens a session; returns its id header (and the initialize response). */
  const open = async (token?: string) => {
    const response = await post(server.url, request(1, 'initialize'), bearer(token));
    const id = response.headers['mcp-session-id'] as string | undefined;
    return { response, headers: { ...bearer(token), 'mcp-session-id': id ?? '' } };
  };
  /** Keeps a session busy with an open standalone stream. */
  const busy = async (headers: Record<string, string>) => {
    const stream = await openStream(server.url, {
      method: 'GET',
      headers: { ...headers, accept: 'text/event-stream' },
    });
    expect(stream.status).toBe(200);
    streams.push(stream);
    return stream;
  };
  const echoStatus = async (headers: Record<string, string>) =>
    (await post(server.url, request(2, 'echo'), headers)).status;
  afterEach(async () => {
    for (const stream of streams.splice(0)) stream.close();
    await server.close();
  });

  it('evicts the least recently used idle session at maxSessions; its id then answers 404', async () => {
    await start({ maxSessions: 5 });
    const sessions = [];
    for (let n = 0; n < 5; n += 1) sessions.push((await open()).headers);
    // Using the oldest makes the second the least recently used.
    expect(await echoStatus(sessions[0]!)).toBe(200);
    const sixth = await open();
    expect(sixth.response.status).toBe(200);
    expect(await echoStatus(sessions[1]!)).toBe(404);
    for (const kept of [sessions[0]!, ...sessions.slice(2), sixth.headers])
      expect(await echoStatus(kept)).toBe(200);
  });

  it('never evicts a busy session: the LRU idle one goes, or 503 with Retry-After when none is idle', async () => {
    await start({ maxSessions: 5, sessionRetryAfterSeconds: 3 });
    const sessions = [];
    for (let n = 0; n < 5; n += 1) sessions.push((await open()).headers);
    for (const headers of sessions.slice(0, 4)) await busy(headers);
    const sixth = await open();
    expect(sixth.response.status).toBe(200);
    expect(await echoStatus(sessions[4]!)).toBe(404);
    await busy(sixth.headers);

    const refused = await open();
    expect(refused.response.status).toBe(503);
    expect(refused.response.headers['retry-after']).toBe('3');
    expect(refused.response.json()).toMatchObject({ id: null, error: { code: -32600 } });
    expect(refused.response.headers['mcp-session-id']).toBeUndefined();
    expect(endpoint.connections.at(-1)?.closed).toBe(true);
    for (const headers of sessions.slice(0, 4)) expect(await echoStatus(headers)).toBe(200);
  });

  it('answers 503 instead of an SSE stream when the session that would carry it finds no room', async () => {
    await start({ maxSessions: 1 });
    await busy((await open()).headers);
    const refused = await post(server.url, request(3, 'initializeStreaming'));
    expect(refused.status).toBe(503);
    expect(refused.headers['content-type']).toBe('application/json');
    expect(refused.headers['retry-after']).toBe('5');
    expect(endpoint.connections.at(-1)?.closed).toBe(true);
  });

  it('counts a request in flight as busy: the LRU session with one is kept', async () => {
    await start({ maxSessions: 2 });
    const [first, second] = [(await open()).headers, (await open()).headers];
    void post(server.url, request(7, 'hang'), first).catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await echoStatus(second)).toBe(200);
    expect((await open()).response.status).toBe(200);
    expect(await echoStatus(second)).toBe(404);
    expect(await echoStatus(first)).toBe(200);
  });

  it('caps the sessions of one authenticated principal without touching the others', async () => {
    const subjects: Record<string, string> = { a: 'alice', b: 'bob' };
    await start({
      maxSessions: 5,
      maxSessionsPerPrincipal: 2,
      auth: {
        get resource() {
          return resource;
        },
        authorizationServers: ['https://auth.example'],
        verifyToken: (token) =>
          subjects[token]
            ? { subject: subjects[token], scopes: [], audience: resource }
            : undefined,
      },
    });
    const bob = (await open('b')).headers;
    const [alice1, alice2] = [(await open('a')).headers, (await open('a')).headers];
    const alice3 = await open('a');
    expect(alice3.response.status).toBe(200);
    expect(await echoStatus(alice1)).toBe(404);
    expect(await echoStatus(bob)).toBe(200);

    await busy(alice2);
    await busy(alice3.headers);
    const refused = await open('a');
    expect(refused.response.status).toBe(503);
    expect(refused.response.headers['retry-after']).toBe('5');
    expect((await open('b')).response.status).toBe(200);
    expect(await echoStatus(bob)).toBe(200);
  });
});
