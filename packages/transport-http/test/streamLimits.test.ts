import { afterEach, describe, expect, it } from 'vitest';
import { type HttpServerHandle, type HttpTransportOptions } from '@rondo/transport-http';
import { serveHttp } from './support/edges.js';
import { fakeEndpoint, type FakeEndpoint } from './support/fakeEndpoint.js';
import { JSON_POST, openStream, post, until, type OpenStream } from './support/http.js';

const request = (id: number, method: string, params: object = {}) => ({
  jsonrpc: '2.0',
  id,
  method,
  params,
});

describe('stream caps', () => {
  let endpoint: FakeEndpoint;
  let server: HttpServerHandle;
  const streams: OpenStream[] = [];
  const start = async (options: HttpTransportOptions) => {
    endpoint = fakeEndpoint();
    server = await serveHttp(endpoint, options);
  };
  const session = async () => {
    const response = await post(server.url, request(1, 'initialize'));
    return { 'mcp-session-id': String(response.headers['mcp-session-id']) };
  };
  /** A POST whose answer turned into a stream that stays open (its request waits to be cancelled). */
  const hanging = async (id: number, headers: Record<string, string> = {}) => {
    const stream = await openStream(server.url, {
      headers: { ...JSON_POST, ...headers },
      body: JSON.stringify(request(id, 'hang', { sendFirst: true })),
    });
    streams.push(stream);
    return stream;
  };
  afterEach(async () => {
    for (const stream of streams.splice(0)) stream.close();
    await server.close();
  });

  it('answers 503 with Retry-After and cancels the request past maxStreamsPerSession', async () => {
    await start({ maxStreamsPerSession: 2, sessionRetryAfterSeconds: 4 });
    const headers = await session();
    for (const id of [2, 3]) {
      const stream = await hanging(id, headers);
      expect(stream.status).toBe(200);
      expect(stream.headers['content-type']).toBe('text/event-stream');
    }
    const refused = await hanging(4, headers);
    expect(refused.status).toBe(503);
    expect(refused.headers['retry-after']).toBe('4');
    const connection = endpoint.connections[0]!;
    await until(() => connection.aborted.includes('4'));
    expect(connection.aborted).toEqual(['4']);
    // A JSON answer opens no stream, and another session has its own count.
    expect((await post(server.url, request(5, 'echo'), headers)).status).toBe(200);
    expect((await hanging(6, await session())).status).toBe(200);
  });

  it('answers GETs and would-be POST streams 503 past maxOpenStreams, until one closes', async () => {
    await start({ maxOpenStreams: 2, sessionRetryAfterSeconds: 2 });
    const headers = await session();
    const first = await hanging(2);
    expect(first.status).toBe(200);
    expect((await hanging(3, headers)).status).toBe(200);

    const get = await openStream(server.url, {
      method: 'GET',
      headers: { ...headers, accept: 'text/event-stream' },
    });
    streams.push(get);
    expect(get.status).toBe(503);
    expect(get.headers['retry-after']).toBe('2');
    const refused = await hanging(4);
    expect(refused.status).toBe(503);
    await until(() => endpoint.connections.some((c) => c.aborted.includes('4')));
    expect((await post(server.url, request(5, 'echo'), headers)).status).toBe(200);

    first.close();
    await until(() => endpoint.connections[1]?.aborted.includes('2') ?? false);
    const after = await openStream(server.url, {
      method: 'GET',
      headers: { ...headers, accept: 'text/event-stream' },
    });
    streams.push(after);
    expect(after.status).toBe(200);
  });

  it('refuses a negative maxOpenStreams and a maxStreamsPerSession below 1', async () => {
    await expect(serveHttp(fakeEndpoint(), { maxOpenStreams: -1 })).rejects.toThrow(
      /maxOpenStreams/,
    );
    await expect(serveHttp(fakeEndpoint(), { maxStreamsPerSession: 0 })).rejects.toThrow(
      /maxStreamsPerSession/,
    );
    await start({});
  });
});
