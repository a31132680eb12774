import { afterEach, describe, expect, it } from 'vitest';
import { type HttpServerHandle } from '@rondo/transport-http';
import { serveHttp } from './support/edges.js';
import { fakeEndpoint } from './support/fakeEndpoint.js';
import { JSON_POST, openStream, post, type OpenStream } from './support/http.js';

const request = (id: number, method: string, params: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0',
  id,
  method,
  params,
});

describe('one standalone GET stream per session', () => {
  let server: HttpServerHandle;
  const streams: OpenStream[] = [];
  const start = async () => {
    server = await serveHttp(fakeEndpoint());
    const response = await post(server.url, request(1, 'initialize'));
    return { 'mcp-session-id': response.headers['mcp-session-id'] as string };
  };
  const get = async (headers: Record<string, string>) => {
    const stream = await openStream(server.url, {
      method: 'GET',
      headers: { ...headers, accept: 'text/event-stream' },
    });
    streams.push(stream);
    return stream;
  };
  afterEach(async () => {
    for (const stream of streams.splice(0)) stream.close();
    await server.close();
  });

  it('answers 200 concurrent GETs on one session with one stream and 409s, then serves a POST', async () => {
    const session = await start();
    const all = await Promise.all(Array.from({ length: 200 }, () => get(session)));
    const statuses = all.map((stream) => stream.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(199);

    const echo = await post(server.url, request(2, 'echo'), session);
    expect(echo.status).toBe(200);
    expect(echo.json()).toMatchObject({ id: 2, result: {} });
    const open = all.find((stream) => stream.status === 200)!;
    await post(server.url, request(3, 'notifyPeer', { text: 'still here' }), session);
    expect(JSON.parse((await open.next()).data).params.data).toBe('still here');
  });

  it('refuses the second GET with a JSON-RPC error body', async () => {
    const session = await start();
    await get(session);
    const second = await fetch(server.url, {
      headers: { ...session, accept: 'text/event-stream' },
    });
    expect(second.status).toBe(409);
    expect(await second.json()).toMatchObject({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600 },
    });
  });

  it('accepts a new GET once the first stream closed', async () => {
    const session = await start();
    const first = await get(session);
    expect(first.status).toBe(200);
    first.close();
    let status = 0;
    // The server learns of the closed socket asynchronously: retry until it has.
    for (let attempt = 0; attempt < 50 && status !== 200; attempt += 1) {
      const again = await get(session);
      status = again.status;
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(status).toBe(200);
  });

  it("resumes a POST stream's Last-Event-ID while the standalone stream is open", async () => {
    const session = await start();
    const standalone = await get(session);
    expect(standalone.status).toBe(200);
    const call = await openStream(server.url, {
      headers: { ...JSON_POST, ...session },
      body: JSON.stringify(request(2, 'stream', { steps: 3, delayMs: 100 })),
    });
    streams.push(call);
    const primed = await call.next();
    call.close();
    const resumed = await get({ ...session, 'last-event-id': primed.id! });
    expect(resumed.status).toBe(200);
    expect(JSON.parse((await resumed.next()).data).method).toBe('notifications/progress');
  });

  it('refuses a Last-Event-ID of the standalone stream while a response receives it', async () => {
    const session = await start();
    const standalone = await get(session);
    await post(server.url, request(2, 'notifyPeer', { text: 'one' }), session);
    const event = await standalone.next();
    const resumed = await get({ ...session, 'last-event-id': event.id! });
    expect(resumed.status).toBe(409);
  });
});
