import { afterEach, describe, expect, it } from 'vitest';
import { type HttpServerHandle, type HttpTransportOptions } from '@rondo/transport-http';
import { serveHttp } from './support/edges.js';
import { fakeEndpoint } from './support/fakeEndpoint.js';
import { JSON_POST, openStream, send, type OpenStream } from './support/http.js';

// Issue 31, points 2 and 6: the caps on streams and sessions are per client (the principal, or
// the peer's address), so one client flooding the server takes its own share, not the others'.
// The flooding client sends from 127.0.0.2, the well-behaved one from 127.0.0.1.

const FLOODER = '127.0.0.2';
const request = (id: number, method: string, params: object = {}) => ({
  jsonrpc: '2.0',
  id,
  method,
  params,
});

describe('fair shares per client', () => {
  let server: HttpServerHandle;
  const streams: OpenStream[] = [];
  const start = async (options: HttpTransportOptions) => {
    server = await serveHttp(fakeEndpoint(), options);
  };
  afterEach(async () => {
    for (const stream of streams.splice(0)) stream.close();
    await server.close();
  });

  const session = async (from?: string, headers: Record<string, string> = {}) => {
    const response = await sendFrom(request(1, 'initialize'), from, headers);
    expect(response.status).toBe(200);
    return { ...headers, 'mcp-session-id': String(response.headers['mcp-session-id']) };
  };
  /** POSTs one message, from `from` when given. */
  const sendFrom = (message: object, from: string | undefined, headers: object = {}) =>
    send(server.url, {
      headers: { ...JSON_POST, ...headers },
      body: JSON.stringify(message),
      ...(from ? { localAddress: from } : {}),
    });
  /** A GET stream of a session (its standalone stream). */
  const getStream = async (headers: Record<string, string>, from?: string) => {
    const stream = await openStream(server.url, {
      method: 'GET',
      headers: { ...headers, accept: 'text/event-stream' },
      ...(from ? { localAddress: from } : {}),
    });
    streams.push(stream);
    return stream;
  };
  /** A POST whose answer became a stream that stays open. */
  const postStream = async (id: number, from?: string, headers: Record<string, string> = {}) => {
    const stream = await openStream(server.url, {
      headers: { ...JSON_POST, ...headers },
      body: JSON.stringify(request(id, 'hang', { sendFirst: true })),
      ...(from ? { localAddress: from } : {}),
    });
    streams.push(stream);
    return stream;
  };

  it('caps the open streams of one client; another client still opens GET and POST streams', async () => {
    await start({ maxStreamsPerClient: 3, maxOpenStreams: 5, sessionRetryAfterSeconds: 2 });
    for (let n = 0; n < 2; n += 1) expect((await postStream(10 + n, FLOODER)).status).toBe(200);
    expect((await getStream(await session(FLOODER), FLOODER)).status).toBe(200);
    const refusedPost = await postStream(20, FLOODER);
    expect(refusedPost.status).toBe(503);
    expect(refusedPost.headers['retry-after']).toBe('2');
    const refusedGet = await getStream(await session(FLOODER), FLOODER);
    expect(refusedGet.status).toBe(503);

    expect((await getStream(await session())).status).toBe(200);
    expect((await postStream(30)).status).toBe(200);
  });

  it('tells clients behind a proxy apart by clientAddressHeader', async () => {
    await start({ maxStreamsPerClient: 1, clientAddressHeader: 'X-Real-IP' });
    const flooder = { 'x-real-ip': '203.0.113.7' };
    expect((await postStream(1, undefined, flooder)).status).toBe(200);
    expect((await postStream(2, undefined, flooder)).status).toBe(503);
    expect((await postStream(3, undefined, { 'x-real-ip': '203.0.113.8' })).status).toBe(200);
  });

  it('caps the sessions of one anonymous client at maxSessionsPerClient, evicting its own', async () => {
    await start({ maxSessionsPerClient: 3 });
    const mine = await session();
    const flood = [];
    for (let n = 0; n < 4; n += 1) flood.push(await session(FLOODER));
    expect((await sendFrom(request(2, 'echo'), FLOODER, flood[0])).status).toBe(404);
    expect((await sendFrom(request(2, 'echo'), FLOODER, flood[3])).status).toBe(200);
    expect((await sendFrom(request(2, 'echo'), undefined, mine)).status).toBe(200);
  });

  it("evicts the flooding client's own idle sessions at maxSessions, never another client's", async () => {
    await start({ maxSessions: 10 });
    const mine = await session();
    for (let n = 0; n < 40; n += 1) await session(FLOODER);
    expect((await sendFrom(request(2, 'echo'), undefined, mine)).status).toBe(200);
    // A second well-behaved client still finds room, taken from the flooder's share.
    const other = await session();
    expect((await sendFrom(request(3, 'echo'), undefined, other)).status).toBe(200);
    expect((await sendFrom(request(4, 'echo'), undefined, mine)).status).toBe(200);
  });
});
