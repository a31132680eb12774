import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import {
  SERVER_CARD_PATH,
  SERVER_CARD_MEDIA_TYPE,
  createServer,
  serve,
  text,
  type ServerOptions,
} from '@rondo/server';
import { createServer as createHttpServer } from 'node:http';
import { ProtocolViolationError, TransportError, readCatalog, readServerCard } from '@rondo/client';
import { createFetchHandler } from '@rondo/transport-http/fetch';
import { createEndpoint } from '@rondo/core';
import { modernEra } from '@rondo/adapter-2026';

// The Server Card (SEP-2127; issue 27, point 4), over real HTTP on 127.0.0.1. Issue 43, done-when
// 4: the card at <endpoint>/server-card with its media type, CORS and caching headers, refused for
// a foreign Host like the endpoint; the catalog at /.well-known/mcp/catalog.json (and
// ai-catalog.json) lists it; the former .well-known card path is a deprecated alias.

/** Where the card of an endpoint at /mcp is. */
const CARD = '/mcp/server-card';
/** The Host names the test servers accept besides their address. */
const ALLOWED = ['127.0.0.1', 'localhost', 'mcp.example.com', 'weather.example.com'];

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

const IDENTITY = {
  name: 'io.example/weather',
  version: '2.1.0',
  title: 'Weather',
  description: 'Forecasts by city',
  icons: [{ src: 'https://example.com/icon.png', mimeType: 'image/png' }],
  log: () => undefined,
};

async function start(options: Partial<ServerOptions>): Promise<URL> {
  const server = createServer({ ...IDENTITY, ...options }).tool('noop', {}, () => text('ok'));
  const running = await serve(server, {
    transport: 'http',
    port: 0,
    quiet: true,
    allowedHosts: ALLOWED,
  });
  closers.push(() => running.close());
  return new URL(running.url);
}

/** One raw HTTP request (node:http, so Host and the method are exactly what is sent). */
function send(
  url: URL,
  path: string,
  method = 'GET',
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path, method, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the Server Card', () => {
  it('is off by default: 404 at its path, the former one and the catalog', async () => {
    const url = await start({});
    for (const path of [CARD, SERVER_CARD_PATH, '/.well-known/mcp/catalog.json'])
      expect((await send(url, path)).status, path).toBe(404);
  });

  it('serves the card at <endpoint>/server-card with its media type, CORS, caching and a strong ETag', async () => {
    const url = await start({ serverCard: true });
    const answer = await send(url, CARD, 'GET', {
      origin: 'https://registry.example',
      accept: SERVER_CARD_MEDIA_TYPE,
    });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('application/mcp-server-card+json');
    expect(answer.headers['access-control-allow-origin']).toBe('*');
    expect(answer.headers['cache-control']).toBe('public, max-age=3600');
    expect(answer.headers.etag).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
    expect(JSON.parse(answer.body)).toEqual({
      $schema: 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json',
      name: 'io.example/weather',
      version: '2.1.0',
      title: 'Weather',
      description: 'Forecasts by city',
      icons: IDENTITY.icons,
      remotes: [{ type: 'streamable-http', url: `http://${url.host}/mcp` }],
    });
  });

  it('keeps the former .well-known path as a deprecated alias pointing at the card', async () => {
    const url = await start({ serverCard: true });
    expect(SERVER_CARD_PATH).toBe('/.well-known/mcp/server-card.json');
    const alias = await send(url, SERVER_CARD_PATH);
    expect(alias.status).toBe(200);
    expect(alias.headers.deprecation).toBe('true');
    expect(alias.headers.link).toBe(`<${CARD}>; rel="successor-version"`);
    expect(alias.body).toBe((await send(url, CARD)).body);
  });

  it('answers only the Host names the endpoint answers, as the endpoint does', async () => {
    const url = await start({ serverCard: true });
    for (const path of [CARD, SERVER_CARD_PATH, '/.well-known/mcp/catalog.json']) {
      const foreign = await send(url, path, 'GET', { host: 'attacker.example' });
      const endpoint = await send(url, '/mcp', 'POST', { host: 'attacker.example' });
      expect(foreign.status, path).toBe(endpoint.status);
      expect(foreign.status, path).toBeGreaterThanOrEqual(400);
      expect(foreign.body, path).not.toContain('io.example/weather');
    }
  });

  it('lists the card in the MCP Catalog and the AI Catalog, with their CORS and caching', async () => {
    const url = await start({ serverCard: true });
    for (const path of ['/.well-known/mcp/catalog.json', '/.well-known/ai-catalog.json']) {
      const catalog = await send(url, path, 'GET', { host: 'weather.example.com' });
      expect(catalog.status, path).toBe(200);
      expect(catalog.headers['access-control-allow-origin']).toBe('*');
      expect(catalog.headers['cache-control']).toBe('public, max-age=3600');
      expect(catalog.headers.etag).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
      expect(JSON.parse(catalog.body)).toEqual({
        specVersion: 'draft',
        entries: [
          {
            identifier: 'urn:air:weather.example.com:weather',
            displayName: 'Weather',
            type: 'application/mcp-server-card+json',
            url: `http://weather.example.com${CARD}`,
          },
        ],
      });
    }
  });

  it('answers a matching If-None-Match with 304 and no body, a stale one with the card', async () => {
    const url = await start({ serverCard: true });
    const { headers } = await send(url, CARD);
    const etag = String(headers.etag);
    const same = await send(url, CARD, 'GET', { 'if-none-match': `"x", ${etag}` });
    expect(same.status).toBe(304);
    expect(same.body).toBe('');
    expect(same.headers.etag).toBe(etag);
    expect((await send(url, CARD, 'GET', { 'if-none-match': '*' })).status).toBe(304);
    const stale = await send(url, CARD, 'GET', { 'if-none-match': '"stale"' });
    expect(stale.status).toBe(200);
    expect(JSON.parse(stale.body).name).toBe('io.example/weather');
  });

  it('gives a different ETag for a different card', async () => {
    const first = await start({ serverCard: true });
    const second = await start({ serverCard: true, version: '2.2.0' });
    const a = await send(first, CARD, 'GET', { host: 'mcp.example.com' });
    const b = await send(second, CARD, 'GET', { host: 'mcp.example.com' });
    expect(a.headers.etag).not.toBe(b.headers.etag);
  });

  it('answers the CORS preflight and HEAD, and refuses other methods with 405', async () => {
    const url = await start({ serverCard: true });
    const preflight = await send(url, CARD, 'OPTIONS', {
      origin: 'https://registry.example',
      'access-control-request-method': 'GET',
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-methods']).toBe('GET, HEAD, OPTIONS');
    const head = await send(url, CARD, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
    const post = await send(url, CARD, 'POST');
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe('GET, HEAD, OPTIONS');
  });

  it('lists configured remotes, or the forwarded https scheme; a junk Host is refused', async () => {
    const remotes = [{ type: 'streamable-http', url: 'https://weather.example.com/mcp' }];
    const fixed = await start({ serverCard: { remotes } });
    expect(JSON.parse((await send(fixed, CARD)).body).remotes).toEqual(remotes);
    const derived = await start({ serverCard: true });
    const forwarded = await send(derived, CARD, 'GET', {
      host: 'weather.example.com',
      'x-forwarded-proto': 'https',
    });
    expect(JSON.parse(forwarded.body).remotes).toEqual([
      { type: 'streamable-http', url: 'https://weather.example.com/mcp' },
    ]);
    const junk = await send(derived, CARD, 'GET', { host: 'evil.com/<x>' });
    expect(junk.status).toBeGreaterThanOrEqual(400);
  });

  it('is served by the fetch handler too', async () => {
    const server = createServer({ ...IDENTITY, serverCard: true });
    const handler = createFetchHandler(createEndpoint(server, { modern: modernEra() }));
    closers.push(() => handler.close());
    const answer = await handler(new Request(`http://127.0.0.1${CARD}`));
    expect(answer.status).toBe(200);
    const etag = answer.headers.get('etag') ?? '';
    const again = await handler(
      new Request(`http://127.0.0.1${CARD}`, { headers: { 'if-none-match': etag } }),
    );
    expect(again.status).toBe(304);
  });
});

describe('@rondo/client reads a catalog and a card', () => {
  it('finds the server through the host catalog, then reads its card', async () => {
    const url = await start({ serverCard: true });
    const entries = await readCatalog(url.origin);
    expect(entries).toEqual([
      {
        identifier: 'urn:air:127.0.0.1:weather',
        displayName: 'Weather',
        url: `${url.origin}${CARD}`,
      },
    ]);
    expect(await readServerCard(entries[0]!.url)).toEqual({
      name: 'io.example/weather',
      version: '2.1.0',
      title: 'Weather',
      description: 'Forecasts by city',
      remotes: [{ type: 'streamable-http', url: `${url.origin}/mcp` }],
    });
  });

  it('refuses a card without a name, a remote without a URL, an oversized answer and a 404', async () => {
    const documents: Record<string, string> = {
      '/nameless': JSON.stringify({ version: '1' }),
      '/bad-remote': JSON.stringify({ name: 'x', version: '1', remotes: [{ type: 'sse' }] }),
      '/huge': JSON.stringify({ name: 'x', version: '1', padding: 'x'.repeat(300 * 1024) }),
    };
    const host = createHttpServer((req, res) => {
      const body = documents[req.url ?? ''];
      res.writeHead(body ? 200 : 404, { 'content-type': 'application/json' }).end(body ?? '{}');
    });
    await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise<void>((resolve) => host.close(() => resolve())));
    const origin = `http://127.0.0.1:${(host.address() as { port: number }).port}`;
    await expect(readServerCard(`${origin}/nameless`)).rejects.toThrow(ProtocolViolationError);
    await expect(readServerCard(`${origin}/bad-remote`)).rejects.toThrow(ProtocolViolationError);
    await expect(readServerCard(`${origin}/huge`)).rejects.toThrow(TransportError);
    await expect(readCatalog(origin)).rejects.toThrow(TransportError);
  });
});
