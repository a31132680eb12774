import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type HttpServerHandle } from '@rondo/transport-http';
import { serveHttp } from './support/edges.js';
import { fakeEndpoint } from './support/fakeEndpoint.js';
import { post, send, JSON_POST, type RawResponse } from './support/http.js';

const echo = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} });

describe('security checks, each with its exact status and JSON-RPC code', () => {
  let server: HttpServerHandle;
  beforeEach(async () => {
    server = await serveHttp(fakeEndpoint(), { port: 0, maxBodyBytes: 1024 });
  });
  afterEach(() => server.close());

  const expectRefusal = async (response: Promise<RawResponse>, status: number, code = -32600) => {
    const answer = await response;
    expect(answer.status).toBe(status);
    expect(answer.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code } });
  };

  it('answers a Host / Origin guard refusal with 403 and a JSON-RPC body (the cases: test/guard)', async () => {
    await expectRefusal(
      send(server.url, { headers: { ...JSON_POST, host: 'evil.example.com' }, body: echo }),
      403,
    );
  });

  it('refuses a body over the limit with 413', async () => {
    const big = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'echo',
      params: { pad: 'x'.repeat(2000) },
    });
    await expectRefusal(send(server.url, { headers: JSON_POST, body: big }), 413);
  });

  it('refuses a body over the limit sent without Content-Length with 413', async () => {
    const big = Buffer.from(
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'echo', params: { pad: 'x'.repeat(2000) } }),
    );
    await expectRefusal(
      send(server.url, { headers: { ...JSON_POST, 'transfer-encoding': 'chunked' }, body: big }),
      413,
    );
  });

  it('refuses a non-JSON Content-Type with 415', async () => {
    await expectRefusal(
      send(server.url, { headers: { ...JSON_POST, 'content-type': 'text/plain' }, body: echo }),
      415,
    );
  });

  it('accepts a JSON Content-Type with a charset', async () => {
    const headers = { ...JSON_POST, 'content-type': 'application/json; charset=utf-8' };
    expect((await send(server.url, { headers, body: echo })).status).toBe(200);
  });

  it.each([
    ['application/json'],
    ['text/event-stream'],
    ['application/json, text/event-stream;q=0'],
  ])('refuses a POST whose Accept is %s with 406', async (accept) => {
    await expectRefusal(send(server.url, { headers: { ...JSON_POST, accept }, body: echo }), 406);
  });

  it('accepts a wildcard Accept', async () => {
    expect(
      (await send(server.url, { headers: { ...JSON_POST, accept: '*/*' }, body: echo })).status,
    ).toBe(200);
  });

  it('refuses a GET whose Accept lacks text/event-stream with 406', async () => {
    const init = await post(server.url, JSON.parse(echo));
    const headers = {
      'mcp-session-id': init.headers['mcp-session-id'] as string,
      accept: 'application/json',
    };
    await expectRefusal(send(server.url, { method: 'GET', headers }), 406);
  });

  it('answers a truncated JSON body with 400 and a -32700 error', async () => {
    await expectRefusal(
      send(server.url, { headers: JSON_POST, body: echo.slice(0, 20) }),
      400,
      -32700,
    );
  });

  it('answers JSON that is no JSON-RPC message with 400 and -32600', async () => {
    await expectRefusal(send(server.url, { headers: JSON_POST, body: '[1,2]' }), 400, -32600);
  });

  it('refuses other methods with 405', async () => {
    await expectRefusal(send(server.url, { method: 'PUT', headers: JSON_POST, body: echo }), 405);
  });

  it('answers other paths with 404', async () => {
    const response = await send(server.url.replace('/mcp', '/elsewhere'), {
      headers: JSON_POST,
      body: echo,
    });
    expect(response.status).toBe(404);
  });
});

describe('CORS for allowed browser origins', () => {
  it('answers a preflight from an allowed origin and exposes the session header', async () => {
    const server = await serveHttp(fakeEndpoint(), { allowedOrigins: ['https://app.example'] });
    try {
      const preflight = await send(server.url, {
        method: 'OPTIONS',
        headers: {
          origin: 'https://app.example',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type, mcp-protocol-version',
        },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers['access-control-allow-origin']).toBe('https://app.example');
      expect(preflight.headers['access-control-allow-headers']).toBe(
        'content-type, mcp-protocol-version',
      );
      const answer = await send(server.url, {
        headers: { ...JSON_POST, origin: 'https://app.example' },
        body: echo,
      });
      expect(answer.headers['access-control-expose-headers']).toContain('mcp-session-id');
      const foreign = await send(server.url, {
        method: 'OPTIONS',
        headers: { origin: 'https://evil.example' },
      });
      expect(foreign.status).toBe(403);
    } finally {
      await server.close();
    }
  });
});
