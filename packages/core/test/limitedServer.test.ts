import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '@rondo/core';
import { createLimitedServer } from '@rondo/core/node';

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
});
