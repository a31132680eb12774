import { request as httpRequest, type ClientRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createFetchHandler,
  serveHttp,
  type HttpServerHandle,
  type ServeHttpOptions,
} from '@rondo/transport-http';
import { fakeEndpoint } from './support/fakeEndpoint.js';
import { openStream, parseSse, post } from './support/http.js';

// Issue 18: a client that stops reading an SSE stream is cut off once it leaves more than
// maxStreamBacklogBytes unread and takes nothing for a whole window, while a client that reads a
// large burst (a replay after Last-Event-ID) at a steady pace is not, however large the burst.

const request = (id: number, method: string, params: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0',
  id,
  method,
  params,
});
const LIMITS: ServeHttpOptions = { maxStreamBacklogBytes: 64 * 1024, streamBacklogWindowMs: 500 };
const MIB = 1024 * 1024;

describe('slow readers of SSE streams', () => {
  let server: HttpServerHandle;
  const requests: ClientRequest[] = [];
  const start = async (options: ServeHttpOptions) => {
    server = await serveHttp(fakeEndpoint(), options);
    const response = await post(server.url, request(1, 'initialize'));
    return { 'mcp-session-id': response.headers['mcp-session-id'] as string };
  };
  afterEach(async () => {
    for (const req of requests.splice(0)) req.destroy();
    await server.close();
  });

  /** Opens the standalone stream and never reads it. */
  const openUnread = (session: Record<string, string>) =>
    new Promise<{ closed: () => boolean }>((resolve, reject) => {
      let closed = false;
      const req = httpRequest(server.url, {
        method: 'GET',
        headers: { ...session, accept: 'text/event-stream' },
      });
      requests.push(req);
      req.on('error', () => (closed = true));
      req.on('close', () => (closed = true));
      req.on('response', (res) => {
        res.pause();
        res.on('error', () => (closed = true));
        resolve({ closed: () => closed });
      });
      req.once('error', reject);
      req.end();
    });

  it('cuts a standalone stream whose client stops reading, and keeps serving the session', async () => {
    const session = await start(LIMITS);
    await openUnread(session);
    const text = 'x'.repeat(MIB);
    // 32 MiB is far past what the socket buffers of loopback hold.
    for (let n = 0; n < 32; n += 1)
      await post(server.url, request(10 + n, 'notifyPeer', { text }), session);
    // Once the unread stream is cut, the session's standalone stream is free: a GET gets 200.
    let status = 409;
    for (let tries = 0; tries < 50 && status !== 200; tries += 1) {
      const again = await openStream(server.url, {
        method: 'GET',
        headers: { ...session, accept: 'text/event-stream' },
      });
      status = again.status;
      again.close();
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(status).toBe(200);
    expect((await post(server.url, request(99, 'echo'), session)).status).toBe(200);
  });

  it('does not cut a replay larger than the limit that the client reads at a steady pace', async () => {
    // The replay ends at once and is watched until its bytes are read. The server sees what the
    // client reads as room the kernel frees in its socket buffer, in steps of about 1.5 MB on
    // loopback: the window must see one step even while the test's timers run late.
    const session = await start({
      ...LIMITS,
      streamBacklogWindowMs: 2000,
      maxStreamDurationMs: 20,
    });
    // A POST stream closed early (SSE polling) leaves its events for a GET with Last-Event-ID.
    const cut = await post(
      server.url,
      request(2, 'stream', { steps: 300, delayMs: 0, size: 40_000 }),
      session,
    );
    const first = parseSse(cut.text).find((event) => event.id)!;
    await new Promise((resolve) => setTimeout(resolve, 200));
    // About 12 MB at about 6 MB/s: far more than the limit and the socket buffers in one burst.
    const received = await new Promise<string>((resolve, reject) => {
      let body = '';
      const req = httpRequest(server.url, {
        method: 'GET',
        headers: { ...session, accept: 'text/event-stream', 'last-event-id': first.id! },
      });
      requests.push(req);
      req.on('error', reject);
      req.on('response', (res) => {
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          body += chunk;
          res.pause();
          setTimeout(() => res.resume(), Math.ceil(chunk.length / 6000));
        });
        res.on('end', () => resolve(body));
        res.on('error', reject);
      });
      req.end();
    });
    const messages = parseSse(received).map((event) => JSON.parse(event.data));
    expect(messages.at(-1)).toMatchObject({ id: 2, result: { streamed: true } });
    expect(received.length).toBeGreaterThan(12_000_000);
  });
});

describe('slow readers of SSE streams on the fetch handler', () => {
  it('errors the body of a standalone stream nobody reads, then accepts a new GET', async () => {
    const handler = createFetchHandler(fakeEndpoint(), LIMITS);
    const call = (init: RequestInit) => handler(new Request('http://127.0.0.1/mcp', init));
    const postInit = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...headers,
      },
      body: JSON.stringify(body),
    });
    const init = await call(postInit(request(1, 'initialize')));
    const session = { 'mcp-session-id': init.headers.get('mcp-session-id') ?? '' };
    const get = () => call({ headers: { ...session, accept: 'text/event-stream' } });
    const unread = await get();
    expect(unread.status).toBe(200);
    // 1 MiB queued on a body nobody reads, far past the 64 KiB limit.
    await call(postInit(request(2, 'notifyPeer', { text: 'x'.repeat(MIB) }), session));
    await new Promise((resolve) => setTimeout(resolve, 1200));
    await expect(unread.body!.getReader().read()).rejects.toThrow('did not read');
    expect((await get()).status).toBe(200);
    await handler.close();
  });
});
