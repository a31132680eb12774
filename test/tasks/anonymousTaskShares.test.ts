import { request } from 'node:http';
import { createEndpoint, createServer, type RondoServer } from '@rondo/core';
import { modernEra } from '@rondo/adapter-2026';
import { TASKS_EXTENSION } from '@rondo/protocol';
import { serveHttp, type HttpServerHandle } from '@rondo/transport-http';
import { serveWebSocket } from '@rondo/transport-ws';
import { afterEach, describe, expect, it } from 'vitest';
import { tasks } from '@rondo/tasks';
import WebSocket from 'ws';

// Issue 31, point 5: without auth, each client's share of running tasks is its own (the
// connection's address), so one anonymous client filling its share leaves the others theirs.
// The flooding client sends from 127.0.0.2, the other from 127.0.0.1. Over WebSocket a client is
// the socket's address the same way (every socket from one address is one client); over stdio
// there is one client by nature.

const open: { http: { close(): Promise<void> }; server: RondoServer }[] = [];
const sockets: WebSocket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.terminate();
  for (const { http, server } of open.splice(0)) {
    await http.close();
    await server.close();
  }
});

function holdingServer(maxTasksPerOwner: number): RondoServer {
  const server = createServer({
    name: 'anonymous-task-shares',
    version: '1.0.0',
    log: () => {},
  }).use(tasks({ maxTasksPerOwner }));
  // Runs until cancelled, so each task holds its slot of the share.
  server.tool('hold', { task: 'optional' }, (_args, ctx) => {
    return new Promise((_resolve, reject) => {
      ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason as Error));
    });
  });
  return server;
}

async function serve(maxTasksPerOwner: number): Promise<string> {
  const server = holdingServer(maxTasksPerOwner);
  const http: HttpServerHandle = await serveHttp(createEndpoint(server, { modern: modernEra() }));
  open.push({ http, server });
  return http.url;
}

let nextId = 1;

/** A task-capable 2026-07-28 `tools/call` of `hold`. */
function holdCall(): { id: number; body: string } {
  const id = nextId++;
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: {
      name: 'hold',
      arguments: {},
      _meta: {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientCapabilities': { extensions: { [TASKS_EXTENSION]: {} } },
      },
    },
  });
  return { id, body };
}

/** Calls `hold` as a task-capable 2026-07-28 client, from `localAddress`; resolves its answer. */
function callFrom(url: string, localAddress: string): Promise<Record<string, unknown>> {
  const { body } = holdCall();
  const headers = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': 'tools/call',
    'mcp-name': 'hold',
    connection: 'close',
  };
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers, localAddress }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve(JSON.parse(text) as Record<string, unknown>));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('issue 31: anonymous clients each have their own share of tasks', () => {
  it('refuses the client from 127.0.0.2 past its share while 127.0.0.1 still creates tasks', async () => {
    const url = await serve(5);
    const flood = [];
    for (let index = 0; index < 8; index += 1) flood.push(await callFrom(url, '127.0.0.2'));
    expect(flood.filter((answer) => answer.result !== undefined)).toHaveLength(5);
    expect(flood.at(-1)).toMatchObject({
      error: { code: -32603, data: { limit: 'maxTasksPerOwner', maxTasksPerOwner: 5 } },
    });
    for (let index = 0; index < 5; index += 1) {
      expect(await callFrom(url, '127.0.0.1')).toMatchObject({
        result: { resultType: 'task', status: 'working' },
      });
    }
    // The flooding client is still held to its share.
    expect(await callFrom(url, '127.0.0.2')).toMatchObject({
      error: { data: { limit: 'maxTasksPerOwner' } },
    });
  });
});

/** A socket to `url` from `localAddress`, with `headers` on its upgrade; resolves once open. */
async function socketFrom(
  url: string,
  localAddress: string,
  headers: Record<string, string> = {},
): Promise<WebSocket> {
  const socket = new WebSocket(url, 'mcp', { localAddress, headers });
  sockets.push(socket);
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  return socket;
}

/** Calls `hold` on `socket`; resolves its answer. */
function callOn(socket: WebSocket): Promise<Record<string, unknown>> {
  const { id, body } = holdCall();
  return new Promise((resolve) => {
    const onMessage = (data: WebSocket.RawData) => {
      const message = JSON.parse((data as Buffer).toString('utf8')) as Record<string, unknown>;
      if (message.id !== id) return;
      socket.off('message', onMessage);
      resolve(message);
    };
    socket.on('message', onMessage);
    socket.send(body);
  });
}

async function serveWs(
  maxTasksPerOwner: number,
  options: { clientAddressHeader?: string; ipv6ClientPrefix?: number } = {},
): Promise<string> {
  const server = holdingServer(maxTasksPerOwner);
  const ws = await serveWebSocket(createEndpoint(server, { modern: modernEra() }), options);
  open.push({ http: ws, server });
  return ws.url;
}

const REFUSED = {
  error: { code: -32603, data: { limit: 'maxTasksPerOwner', maxTasksPerOwner: 3 } },
};
const CREATED = { result: { resultType: 'task', status: 'working' } };

describe('issue 31: over WebSocket, each address is one client with its own share', () => {
  it('refuses the sockets from 127.0.0.2 past their share while 127.0.0.1 still creates tasks', async () => {
    const url = await serveWs(3);
    const first = await socketFrom(url, '127.0.0.2');
    for (let index = 0; index < 3; index += 1) expect(await callOn(first)).toMatchObject(CREATED);
    expect(await callOn(first)).toMatchObject(REFUSED);
    // A second socket from the same address is the same client: no fresh share.
    expect(await callOn(await socketFrom(url, '127.0.0.2'))).toMatchObject(REFUSED);
    const other = await socketFrom(url, '127.0.0.1');
    for (let index = 0; index < 3; index += 1) expect(await callOn(other)).toMatchObject(CREATED);
    expect(await callOn(other)).toMatchObject(REFUSED);
  });

  it('tells clients behind a proxy apart by clientAddressHeader', async () => {
    const url = await serveWs(3, { clientAddressHeader: 'x-forwarded-for' });
    const behind = (address: string) =>
      socketFrom(url, '127.0.0.1', { 'x-forwarded-for': `203.0.113.9, ${address}` });
    const flooder = await behind('198.51.100.1');
    for (let index = 0; index < 3; index += 1) expect(await callOn(flooder)).toMatchObject(CREATED);
    expect(await callOn(flooder)).toMatchObject(REFUSED);
    expect(await callOn(await behind('198.51.100.2'))).toMatchObject(CREATED);
  });
});

describe('issue 39: an IPv6 client is its /64 network', () => {
  const from = (address: string) => ({ 'x-real-ip': address });

  it('gives two addresses of one /64 one share, and another /64 its own', async () => {
    const url = await serveWs(3, { clientAddressHeader: 'x-real-ip' });
    const first = await socketFrom(url, '127.0.0.1', from('2001:db8:1:2::1'));
    for (let index = 0; index < 3; index += 1) expect(await callOn(first)).toMatchObject(CREATED);
    // Another address of the same /64 (as a subscriber given the whole network may pick) draws
    // on the same share.
    const sibling = await socketFrom(url, '127.0.0.1', from('2001:db8:1:2:dead:beef:0:7'));
    expect(await callOn(sibling)).toMatchObject(REFUSED);
    const neighbour = await socketFrom(url, '127.0.0.1', from('2001:db8:1:3::1'));
    expect(await callOn(neighbour)).toMatchObject(CREATED);
  });

  it('counts each address alone with ipv6ClientPrefix 128', async () => {
    const url = await serveWs(1, { clientAddressHeader: 'x-real-ip', ipv6ClientPrefix: 128 });
    const first = await socketFrom(url, '127.0.0.1', from('2001:db8:1:2::1'));
    expect(await callOn(first)).toMatchObject(CREATED);
    const sibling = await socketFrom(url, '127.0.0.1', from('2001:db8:1:2::2'));
    expect(await callOn(sibling)).toMatchObject(CREATED);
  });
});
