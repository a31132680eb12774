import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, HttpAuthError, httpTransport, type HttpAuthorizer } from '@rondo/client';
import { afterEach, describe, expect, it } from 'vitest';

// The HTTP transport asks its authorizer for every request it sends (POST, the standalone GET,
// DELETE) and sends a refused request again only while the authorizer says so, a bounded number
// of times. The server below is a bare legacy MCP endpoint that wants `Bearer good`.

interface Seen {
  method: string;
  authorization: string | undefined;
}

let server: Server | undefined;
afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

async function startServer(seen: Seen[]): Promise<string> {
  server = createServer((req: IncomingMessage, res) => {
    seen.push({ method: req.method ?? '', authorization: req.headers.authorization });
    if (req.headers.authorization !== 'Bearer good') {
      res.writeHead(401, { 'WWW-Authenticate': 'Bearer' }).end();
      return;
    }
    if (req.method === 'GET') return void res.writeHead(405).end();
    if (req.method === 'DELETE') return void res.writeHead(200).end();
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const message = JSON.parse(body) as { id?: number; method: string };
      if (message.id === undefined) return void res.writeHead(202).end();
      const result =
        message.method === 'initialize'
          ? {
              protocolVersion: '2025-11-25',
              capabilities: {},
              serverInfo: { name: 'auth', version: '1' },
            }
          : { tools: [] };
      res.writeHead(200, { 'Content-Type': 'application/json', 'Mcp-Session-Id': 's1' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
}

describe('the HTTP transport with an authorizer', () => {
  it('authorizes every request, POST, GET and DELETE, after a challenge obtained a token', async () => {
    const seen: Seen[] = [];
    const url = await startServer(seen);
    let token: string | undefined;
    const challenges: number[] = [];
    const authorizer: HttpAuthorizer = {
      authorization: () => Promise.resolve(token && `Bearer ${token}`),
      challenged: (response) => {
        challenges.push(response.status);
        token = 'good';
        return Promise.resolve(true);
      },
    };
    const client = new Client({ transport: httpTransport({ url, authorizer }), era: '2025-11-25' });
    await client.connect();
    await client.listTools();
    await new Promise((resolve) => setTimeout(resolve, 200));
    await client.close();
    expect(challenges).toEqual([401]);
    expect(seen[0]).toEqual({ method: 'POST', authorization: undefined });
    const methods = new Set(seen.slice(1).map((request) => request.method));
    expect(methods).toEqual(new Set(['POST', 'GET', 'DELETE']));
    expect(seen.slice(1).every((request) => request.authorization === 'Bearer good')).toBe(true);
  });

  it('gives up with HttpAuthError after the retry limit when the token never works', async () => {
    const seen: Seen[] = [];
    const url = await startServer(seen);
    const authorizer: HttpAuthorizer = {
      authorization: () => Promise.resolve('Bearer bad'),
      challenged: () => Promise.resolve(true),
    };
    const client = new Client({
      transport: httpTransport({ url, authorizer, maxAuthRetries: 2 }),
      era: '2025-11-25',
    });
    const error = await client.connect().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(HttpAuthError);
    expect((error as HttpAuthError).status).toBe(401);
    expect(seen).toHaveLength(3);
  });

  it('fails with HttpAuthError at once when the authorizer declines', async () => {
    const seen: Seen[] = [];
    const url = await startServer(seen);
    const authorizer: HttpAuthorizer = {
      authorization: () => Promise.resolve(undefined),
      challenged: () => Promise.resolve(false),
    };
    const client = new Client({ transport: httpTransport({ url, authorizer }), era: '2025-11-25' });
    await expect(client.connect()).rejects.toBeInstanceOf(HttpAuthError);
    expect(seen).toHaveLength(1);
  });

  it('uses the fetch it was given', async () => {
    const seen: Seen[] = [];
    const url = await startServer(seen);
    const fetched: string[] = [];
    const ownFetch: typeof fetch = (input, init) => {
      fetched.push(init?.method ?? 'GET');
      return fetch(input, init);
    };
    const authorizer: HttpAuthorizer = {
      authorization: () => Promise.resolve('Bearer good'),
      challenged: () => Promise.resolve(false),
    };
    const client = new Client({
      transport: httpTransport({ url, authorizer, fetch: ownFetch, standaloneStream: false }),
      era: '2025-11-25',
    });
    await client.connect();
    await client.close();
    expect(fetched).toEqual(['POST', 'POST', 'DELETE']);
  });
});
