import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '@rondo/core';
import { createLimitedServer, listenOn } from '@rondo/core/node';

const noop = () => undefined;

describe('createLimitedServer', () => {
  it('applies the default header, request and keep-alive timeouts and connection cap', () => {
    const server = createLimitedServer({}, noop);
    expect(server.headersTimeout).toBe(10_000);
    expect(server.requestTimeout).toBe(30_000);
    expect(server.keepAliveTimeout).toBe(5000);
    expect(server.maxConnections).toBe(10_000);
  });

  it('takes each limit from its option', () => {
    const server = createLimitedServer(
      { headersTimeoutMs: 1000, requestTimeoutMs: 2000, keepAliveTimeoutMs: 0, maxConnections: 7 },
      noop,
    );
    expect([server.headersTimeout, server.requestTimeout, server.keepAliveTimeout]).toEqual([
      1000, 2000, 0,
    ]);
    expect(server.maxConnections).toBe(7);
  });

  it('keeps the default header timeout within a shorter request timeout', () => {
    expect(createLimitedServer({ requestTimeoutMs: 4000 }, noop).headersTimeout).toBe(4000);
  });

  it('rejects a negative limit and a header timeout past the request timeout', () => {
    expect(() => createLimitedServer({ maxConnections: -1 }, noop)).toThrow(ConfigurationError);
    expect(() =>
      createLimitedServer({ headersTimeoutMs: 5000, requestTimeoutMs: 1000 }, noop),
    ).toThrow(ConfigurationError);
  });

  it('times out a first request whose headers or body never end with 408, and leaves a served connection open', async () => {
    const server = createLimitedServer(
      { headersTimeoutMs: 300, requestTimeoutMs: 600, keepAliveTimeoutMs: 5000 },
      (req, res) => {
        req.resume();
        req.once('end', () => res.end('ok'));
      },
    );
    const listening = await listenOn(server, 0, '127.0.0.1');
    /** Sends `text` on a new connection; resolves with what came back once it closed. */
    const exchange = (text: string) => {
      const socket = connect(listening.port, '127.0.0.1');
      let answer = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => (answer += chunk));
      socket.on('error', () => undefined);
      socket.write(text);
      return {
        socket,
        closed: new Promise<string>((resolve) => socket.once('close', () => resolve(answer))),
      };
    };
    const head = exchange('POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: a');
    const body = exchange('POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 10\r\n\r\nabc');
    const served = exchange('POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2\r\n\r\nhi');
    expect(await head.closed).toMatch(/^HTTP\/1\.1 408/);
    expect(await body.closed).toMatch(/^HTTP\/1\.1 408/);
    // Past both timeouts the served connection is still open and takes a second request.
    await new Promise((resolve) => setTimeout(resolve, 900));
    expect(served.socket.destroyed).toBe(false);
    served.socket.end('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
    expect((await served.closed).match(/HTTP\/1\.1 200/g)).toHaveLength(2);
    await listening.close();
  });
});
