import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, TransportError, httpTransport, type HttpTransportOptions } from '@rondo/client';
import { nodeHttpTransport } from '@rondo/client/node';
import { afterEach, describe, expect, it } from 'vitest';

// A POST answered with an SSE stream that ends before the answer is resumed with GET and
// Last-Event-ID after the server's `retry:` delay; the resumptions of one request are bounded. On
// the global fetch and on node:http alike.
let server: Server | undefined;
afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

/** A legacy endpoint whose tools/list answer arrives only on the GET numbered `answerOnGet`. */
async function start(answerOnGet: number, lastEventIds: (string | undefined)[]): Promise<string> {
  let pendingId: number | undefined;
  server = createServer((req, res) => {
    if (req.method === 'GET') {
      lastEventIds.push(req.headers['last-event-id'] as string | undefined);
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      const n = lastEventIds.length;
      if (n === answerOnGet && pendingId !== undefined) {
        const answer = { jsonrpc: '2.0', id: pendingId, result: { tools: [] } };
        res.end(`id: g${n}\ndata: ${JSON.stringify(answer)}\n\n`);
      } else res.end(`id: g${n}\nretry: 20\ndata: \n\n`);
      return;
    }
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      if (req.method === 'DELETE') return void res.writeHead(200).end();
      const message = JSON.parse(body) as { id?: number; method: string };
      if (message.id === undefined) return void res.writeHead(202).end();
      if (message.method === 'initialize') {
        const result = {
          protocolVersion: '2025-11-25',
          capabilities: {},
          serverInfo: { name: 's', version: '1' },
        };
        res.writeHead(200, { 'Content-Type': 'application/json', 'Mcp-Session-Id': 'x' });
        return void res.end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
      }
      pendingId = message.id;
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      res.end('id: p1\nretry: 20\ndata: \n\n');
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
}

const transports = { 'global fetch': httpTransport, 'node:http': nodeHttpTransport } as const;

describe.each(Object.entries(transports))('SSE resumption (%s)', (_name, make) => {
  const httpTransport = (options: HttpTransportOptions) => make(options);
  it('resumes with Last-Event-ID until the answer arrives', async () => {
    const lastEventIds: (string | undefined)[] = [];
    const url = await start(2, lastEventIds);
    const client = new Client({
      transport: httpTransport({ url, standaloneStream: false }),
      era: '2025-11-25',
    });
    await client.connect();
    expect((await client.listTools()).tools).toEqual([]);
    expect(lastEventIds).toEqual(['p1', 'g1']);
    await client.close();
  });

  it('maxReconnects: gives up with TransportError when the stream never brings the answer', async () => {
    const lastEventIds: (string | undefined)[] = [];
    const url = await start(Infinity, lastEventIds);
    const client = new Client({
      transport: httpTransport({ url, standaloneStream: false, maxReconnects: 3 }),
      era: '2025-11-25',
    });
    await client.connect();
    await expect(client.listTools()).rejects.toBeInstanceOf(TransportError);
    expect(lastEventIds).toHaveLength(3);
    await client.close();
  });
});
