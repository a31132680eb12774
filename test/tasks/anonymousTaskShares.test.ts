import { request } from 'node:http';
import { createEndpoint, createServer, type RondoServer } from '@rondo/core';
import { modernEra } from '@rondo/adapter-2026';
import { TASKS_EXTENSION } from '@rondo/protocol';
import { serveHttp, type HttpServerHandle } from '@rondo/transport-http';
import { afterEach, describe, expect, it } from 'vitest';

// Issue 31, point 5: without auth, each client's share of running tasks is its own (the
// connection's address), so one anonymous client filling its share leaves the others theirs.
// The flooding client sends from 127.0.0.2, the other from 127.0.0.1.

const open: { http: HttpServerHandle; server: RondoServer }[] = [];
afterEach(async () => {
  for (const { http, server } of open.splice(0)) {
    await http.close();
    await server.close();
  }
});

async function serve(maxTasksPerOwner: number): Promise<string> {
  const server = createServer({
    name: 'anonymous-task-shares',
    version: '1.0.0',
    tasks: { maxTasksPerOwner },
    log: () => {},
  });
  // Runs until cancelled, so each task holds its slot of the share.
  server.tool('hold', { task: 'optional' }, (_args, ctx) => {
    return new Promise((_resolve, reject) => {
      ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason as Error));
    });
  });
  const http = await serveHttp(createEndpoint(server, { modern: modernEra() }));
  open.push({ http, server });
  return http.url;
}

let nextId = 1;

/** Calls `hold` as a task-capable 2026-07-28 client, from `localAddress`; resolves its answer. */
function callFrom(url: string, localAddress: string): Promise<Record<string, unknown>> {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: nextId++,
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
