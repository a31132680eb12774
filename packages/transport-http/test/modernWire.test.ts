import { request } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type HttpServerHandle } from '@rondo/transport-http';
import { serveHttp } from './support/edges.js';
import { fakeEndpoint, type FakeEndpoint } from './support/fakeEndpoint.js';
import { openStream, parseSse, post, send, until, JSON_POST } from './support/http.js';

// A modern request carries its protocol version in _meta; the transport opens a fresh connection for it.
const modern = (id: number, method: string, params: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0',
  id,
  method,
  params: { ...params, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } },
});

describe('modern wire (stateless POST)', () => {
  let endpoint: FakeEndpoint;
  let server: HttpServerHandle;
  beforeEach(async () => {
    endpoint = fakeEndpoint();
    server = await serveHttp(endpoint, { port: 0 });
  });
  afterEach(() => server.close());

  it('answers a request with one JSON body and releases its connection', async () => {
    const response = await post(server.url, modern(1, 'echo', { x: 1 }));
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/json');
    expect(response.json()).toMatchObject({ id: 1, result: { params: { x: 1 } } });
    expect(response.headers['mcp-session-id']).toBeUndefined();
    await until(() => endpoint.connections[0]?.closed === true);
  });

  it('gives every POST a fresh connection', async () => {
    await post(server.url, modern(1, 'echo'));
    await post(server.url, modern(2, 'echo'));
    expect(endpoint.connections).toHaveLength(2);
  });

  it('switches to SSE when the exchange sends before its end, then closes the stream', async () => {
    const response = await post(server.url, modern(7, 'stream', { steps: 3 }));
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/event-stream');
    const events = parseSse(response.text).map((event) => JSON.parse(event.data));
    expect(events.map((event) => event.method ?? 'final')).toEqual([
      'notifications/progress',
      'notifications/progress',
      'notifications/progress',
      'final',
    ]);
    expect(events[3]).toMatchObject({ id: 7, result: { streamed: true } });
    expect(parseSse(response.text).every((event) => event.id === undefined)).toBe(true);
  });

  it.each([
    ['refused', -32020, 400],
    ['unknown', -32601, 404],
    ['handled', -32602, 200],
    [undefined, -32603, 200],
  ])(
    'answers an exchange ended as %s with the HTTP status it maps to',
    async (disposition, code, status) => {
      const response = await post(server.url, modern(3, 'fail', { code, disposition }));
      expect(response.status).toBe(status);
      expect(response.json()).toMatchObject({ id: 3, error: { code } });
    },
  );

  it('accepts a notification with 202 and no body', async () => {
    const notification = {
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: {
        requestId: 'listen:0',
        _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' },
      },
    };
    const response = await post(server.url, notification, { 'mcp-protocol-version': '2026-07-28' });
    expect(response.status).toBe(202);
    expect(response.text).toBe('');
  });

  it.each(['GET', 'DELETE'])('refuses %s without a session with 405', async (method) => {
    const response = await send(server.url, { method, headers: { accept: 'text/event-stream' } });
    expect(response.status).toBe(405);
    expect(response.headers.allow).toBe('POST');
    expect(response.json().error.code).toBe(-32600);
  });

  it('aborts the exchange when the client goes away before any answer', async () => {
    const req = request(server.url, { method: 'POST', headers: JSON_POST });
    req.on('error', () => undefined);
    req.end(JSON.stringify(modern(9, 'hang')));
    await until(() => endpoint.connections[0]?.received.length === 1);
    req.destroy();
    await until(() => endpoint.connections[0]?.aborted.includes('9') === true);
    await until(() => endpoint.connections[0]?.closed === true);
  });

  it('aborts the exchange when the client closes its SSE stream (the modern cancel)', async () => {
    const stream = await openStream(server.url, {
      headers: JSON_POST,
      body: JSON.stringify(modern(10, 'hang', { sendFirst: true })),
    });
    expect(stream.headers['content-type']).toBe('text/event-stream');
    expect(JSON.parse((await stream.next()).data).method).toBe('notifications/started');
    stream.close();
    await until(() => endpoint.connections[0]?.aborted.includes('10') === true);
  });
});
