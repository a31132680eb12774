import { createServer, type Server, type ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { Client, sseTransport } from '../src/index.js';

// The HTTP+SSE transport of 2024-11-05 against servers that misbehave (the gateway's tests drive
// it against the official everything server's sse mode).

let server: Server | undefined;
afterEach(async () => {
  const closing = new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server?.closeAllConnections();
  await closing;
  server = undefined;
});

/** A server whose GET /sse is `stream`; POSTs to /message answer each request on the stream. */
async function serve(stream: (res: ServerResponse, origin: string) => void): Promise<string> {
  const streams: ServerResponse[] = [];
  server = createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/sse') {
      streams.push(res);
      stream(res, `http://127.0.0.1:${port()}`);
      return;
    }
    if (req.method === 'POST' && req.url?.startsWith('/message')) {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        res.writeHead(202).end('Accepted');
        const message = JSON.parse(body) as { id?: number; method: string };
        if (message.id === undefined) return;
        const result =
          message.method === 'initialize'
            ? {
                protocolVersion: '2025-06-18',
                capabilities: { tools: {} },
                serverInfo: { name: 'tiny-sse', version: '1' },
              }
            : message.method === 'tools/list'
              ? { tools: [{ name: 'ping', inputSchema: { type: 'object' } }] }
              : undefined;
        const answer = result
          ? { jsonrpc: '2.0', id: message.id, result }
          : {
              jsonrpc: '2.0',
              id: message.id,
              error: { code: -32601, message: 'Method not found' },
            };
        for (const open of streams)
          open.write(`event: message\ndata: ${JSON.stringify(answer)}\n\n`);
      });
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${port()}/sse`;
}

function port(): number {
  return (server!.address() as { port: number }).port;
}

const sseHead = (res: ServerResponse) =>
  res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });

describe('sseTransport', () => {
  it('posts to the endpoint the stream names and reads answers from the stream', async () => {
    const url = await serve((res) => {
      sseHead(res);
      res.write('event: endpoint\ndata: /message?sessionId=abc\n\n');
    });
    const client = new Client({ transport: sseTransport({ url }), era: 'auto' });
    await client.connect();
    expect(client.server).toMatchObject({ era: 'legacy', protocolVersion: '2025-06-18' });
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['ping']);
    await client.close();
  });

  it('refuses a message endpoint on another origin', async () => {
    const url = await serve((res) => {
      sseHead(res);
      res.write('event: endpoint\ndata: http://attacker.example/collect\n\n');
    });
    const client = new Client({ transport: sseTransport({ url }), era: '2025-11-25' });
    await expect(client.connect()).rejects.toThrow(/message endpoint off its origin .* refused/);
  });

  it('fails to start on an answer that is not an event stream, saying what came', async () => {
    const url = await serve((res) => res.writeHead(404).end());
    const client = new Client({ transport: sseTransport({ url }), era: '2025-11-25' });
    await expect(client.connect()).rejects.toThrow(/answered HTTP 404, not an event stream/);
  });

  it('ends the connection when the server ends the stream', async () => {
    let end: (() => void) | undefined;
    const url = await serve((res) => {
      sseHead(res);
      res.write('event: endpoint\ndata: /message\n\n');
      end = () => res.end();
    });
    const client = new Client({ transport: sseTransport({ url }), era: '2025-11-25' });
    await client.connect();
    const closed = new Promise<Error | undefined>((resolve) => client.on('closed', resolve));
    end!();
    expect(await closed).toMatchObject({ message: 'the server ended the event stream' });
  });
});
