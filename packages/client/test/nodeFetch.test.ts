import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, ProtocolViolationError } from '@rondo/client';
import { nodeFetch, nodeHttpTransport } from '@rondo/client/node';
import { afterEach, describe, expect, it } from 'vitest';

// nodeFetch: the fetch on node:http under nodeHttpTransport. Small bodies of known length are read
// whole; anything else streams, so the transport's own caps and aborts still apply.
let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

async function serve(handler: Parameters<typeof createServer>[1]): Promise<string> {
  server = createServer(handler);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
}

describe('nodeFetch', () => {
  it('sends method, headers and body, and answers status, headers and the whole body', async () => {
    const seen: { method?: string; header?: string; body?: string } = {};
    const url = await serve((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        Object.assign(seen, { method: req.method, header: req.headers['x-probe'], body });
        res.writeHead(201, { 'Content-Type': 'application/json', 'X-Answer': 'yes' });
        res.end('{"ok":true}');
      });
    });
    const fetch = nodeFetch();
    const response = await fetch(url, { method: 'POST', headers: { 'X-Probe': 'p' }, body: 'hi' });
    expect(seen).toEqual({ method: 'POST', header: 'p', body: 'hi' });
    expect(response.status).toBe(201);
    expect(response.headers.get('x-answer')).toBe('yes');
    expect(await response.json()).toEqual({ ok: true });
  });

  it('streams an SSE body, and an abort ends the stream', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      res.write('data: first\n\n');
    });
    const controller = new AbortController();
    const response = await nodeFetch()(url, { signal: controller.signal });
    const reader = response.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('data: first\n\n');
    controller.abort(new Error('stop'));
    await expect(reader.read()).rejects.toThrow();
  });

  it('bufferBytes: a body longer than it streams, so the answer comes before the body ends', async () => {
    let finish: () => void = () => undefined;
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '10' });
      res.write('{"a":');
      finish = () => res.end('12345');
    });
    const response = await nodeFetch({ bufferBytes: 4 })(url);
    const reader = response.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('{"a":');
    finish();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('12345');
  });

  it('rejects with the reason when aborted before the answer', async () => {
    const url = await serve(() => undefined);
    const controller = new AbortController();
    const pending = nodeFetch()(url, { signal: controller.signal });
    controller.abort(new Error('gave up'));
    await expect(pending).rejects.toThrow('gave up');
  });

  it("streams a body of unknown length, so the transport's frame cap still refuses it", async () => {
    const url = await serve((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        const message = JSON.parse(body) as { id?: number; method: string };
        if (message.id === undefined) return void res.writeHead(202).end();
        res.writeHead(200, { 'Content-Type': 'application/json' });
        if (message.method === 'initialize') {
          const result = {
            protocolVersion: '2025-11-25',
            capabilities: {},
            serverInfo: { name: 's', version: '1' },
          };
          return void res.end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
        }
        // Chunked, no Content-Length: 4 MiB of padding that never ends a JSON value.
        const chunk = 'x'.repeat(64 * 1024);
        for (let i = 0; i < 64; i++) res.write(chunk);
        res.end();
      });
    });
    const client = new Client({
      transport: nodeHttpTransport({ url, standaloneStream: false, maxFrameBytes: 1024 * 1024 }),
      era: '2025-11-25',
    });
    await client.connect();
    await expect(client.listTools()).rejects.toBeInstanceOf(ProtocolViolationError);
    await client.close();
  });
});
