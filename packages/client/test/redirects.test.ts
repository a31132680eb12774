import {
  createServer,
  type IncomingHttpHeaders,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { httpTransport, type ClientTransport, type HttpAuthorizer } from '@rondo/client';
import { nodeHttpTransport } from '@rondo/client/node';
import { afterEach, describe, expect, it } from 'vitest';

// Issue 38: the HTTP transport follows redirects itself, so a redirect to another origin never
// carries the static headers (an API key), the token or the session meant for the first one.

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

interface Seen {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly method: string;
}

/** A server on its own port (its own origin) that records each request and answers with `reply`. */
async function origin(
  reply: (path: string, res: ServerResponse) => void,
): Promise<{ base: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const path = req.url ?? '/';
      seen.push({ path, headers: req.headers, method: req.method ?? '' });
      reply(path, res);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

function answerRpc(res: ServerResponse): void {
  res.writeHead(200, { 'Content-Type': 'application/json', 'Mcp-Session-Id': 's-1' });
  res.end(JSON.stringify({ jsonrpc: '2.0', id: 1, result: {} }));
}

/** Sends one request over `transport` and resolves with the frame that answered it. */
async function roundTrip(transport: ClientTransport): Promise<string> {
  let answer: (frame: string) => void = () => undefined;
  const answered = new Promise<string>((resolve) => (answer = resolve));
  await transport.start({
    receive: (frame) => {
      answer(frame);
      return 1;
    },
    refused: () => undefined,
    closed: () => undefined,
  });
  await transport.send({ jsonrpc: '2.0', id: 1, method: 'ping' });
  return answered;
}

const token: HttpAuthorizer = {
  authorization: () => Promise.resolve('Bearer first-origin-token'),
  challenged: () => Promise.resolve(false),
};

describe.each([
  ['httpTransport (global fetch)', httpTransport],
  ['nodeHttpTransport', nodeHttpTransport],
])('%s redirects', (_name, make) => {
  it('a 307 to another origin carries no static header, token or session', async () => {
    const other = await origin((_path, res) => answerRpc(res));
    const first = await origin((_path, res) => {
      res.writeHead(307, { Location: `${other.base}/mcp` });
      res.end();
    });
    const transport = make({
      url: `${first.base}/mcp`,
      headers: { 'X-Api-Key': 'secret-key' },
      authorizer: token,
    });
    expect(await roundTrip(transport)).toContain('"result"');
    expect(first.seen[0]?.headers['x-api-key']).toBe('secret-key');
    const [moved] = other.seen;
    expect(moved).toMatchObject({ path: '/mcp', method: 'POST' });
    expect(moved?.headers['x-api-key']).toBeUndefined();
    expect(moved?.headers.authorization).toBeUndefined();
    expect(moved?.headers['content-type']).toBe('application/json');
    await transport.close();
  });

  it('a 308 on the same origin keeps the static headers', async () => {
    const same = await origin((path, res) => {
      if (path === '/old') {
        res.writeHead(308, { Location: '/mcp' });
        return res.end();
      }
      answerRpc(res);
    });
    const transport = make({ url: `${same.base}/old`, headers: { 'X-Api-Key': 'secret-key' } });
    expect(await roundTrip(transport)).toContain('"result"');
    expect(same.seen.map((seen) => [seen.path, seen.headers['x-api-key']])).toEqual([
      ['/old', 'secret-key'],
      ['/mcp', 'secret-key'],
    ]);
    await transport.close();
  });

  it('gives up after five redirects, naming no query', async () => {
    const loop = await origin((_path, res) => {
      res.writeHead(307, { Location: '/mcp?api_key=hidden' });
      res.end();
    });
    const transport = make({ url: `${loop.base}/mcp?api_key=hidden` });
    await transport.start({
      receive: () => undefined,
      refused: () => undefined,
      closed: () => undefined,
    });
    const error = await transport
      .send({ jsonrpc: '2.0', id: 1, method: 'ping' })
      .catch((caught: unknown) => caught as Error);
    expect(String(error)).toMatch(/more than 5 redirects/);
    expect(String(error)).not.toContain('hidden');
    expect(loop.seen).toHaveLength(6);
  });
});
