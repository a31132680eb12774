import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { createServer, type Server, type ServerResponse } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { DEPLOY_SITE, NginxTemplateError, renderSite, startNginx } from '../support/nginx.js';

// The deploy kit's nginx site (deploy/nginx/rondo.conf), run by the real nginx in front of three
// plain node servers that answer their own name: round robin, SSE passed through event by event,
// a dead replica skipped, WebSocket upgrades passed on.

interface Upstream {
  name: string;
  /** Bytes a /flood response got out before writing stalled, once it stalled or wrote them all. */
  flooded: Promise<number>;
  port: number;
  server: Server;
  /** SSE responses still open, so a test decides when they end. */
  streams: ServerResponse[];
  stop(): Promise<void>;
}

async function startUpstream(name: string): Promise<Upstream> {
  const streams: ServerResponse[] = [];
  let flooded: (bytes: number) => void = () => {};
  const floodDone = new Promise<number>((resolve) => (flooded = resolve));
  const server = createServer((req, res) => {
    if (req.url === '/flood') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      void flood(res).then(flooded);
      return;
    }
    if (req.url === '/events') {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.write(`data: hello from ${name}\n\n`);
      streams.push(res);
      return;
    }
    req.resume();
    req.on('end', () =>
      res.end(JSON.stringify({ name, method: req.method, host: req.headers.host })),
    );
  });
  const sockets = new WebSocketServer({ server, path: '/ws' });
  sockets.on('connection', (socket) =>
    socket.on('message', (data: Buffer) => socket.send(`${name}: ${data.toString()}`)),
  );
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const stop = async () => {
    for (const socket of sockets.clients) socket.terminate();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return {
    name,
    port: (server.address() as AddressInfo).port,
    server,
    streams,
    flooded: floodDone,
    stop,
  };
}

const FLOOD_BYTES = 64 * 1024 * 1024;

/** Writes events until FLOOD_BYTES are out or a write has waited 500 ms for 'drain'. */
async function flood(res: ServerResponse): Promise<number> {
  const event = `data: ${'x'.repeat(64 * 1024 - 8)}\n\n`;
  let written = 0;
  while (written < FLOOD_BYTES) {
    written += event.length;
    if (res.write(event)) continue;
    const drained = await Promise.race([
      once(res, 'drain').then(() => true),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 500)),
    ]);
    if (!drained) return written - res.writableLength;
  }
  return written;
}

async function startCluster(): Promise<{
  upstreams: Upstream[];
  nginx: Awaited<ReturnType<typeof startNginx>>;
  [Symbol.asyncDispose](): Promise<void>;
}> {
  const upstreams = await Promise.all(['one', 'two', 'three'].map(startUpstream));
  const nginx = await startNginx({ upstreams: upstreams.map((upstream) => upstream.port) });
  return {
    upstreams,
    nginx,
    [Symbol.asyncDispose]: async () => {
      await nginx.stop();
      await Promise.all(upstreams.map((upstream) => upstream.stop()));
    },
  };
}

async function namesOf(url: string, count: number, method = 'GET'): Promise<string[]> {
  const names: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const response = await fetch(url, method === 'POST' ? { method, body: '{}' } : {});
    expect(response.status).toBe(200);
    names.push(((await response.json()) as { name: string }).name);
  }
  return names;
}

describe('the deploy nginx site in front of three replicas', () => {
  it('spreads requests round robin over every replica, GET and POST alike', async () => {
    await using cluster = await startCluster();
    const gets = await namesOf(`${cluster.nginx.url}/mcp`, 6);
    expect(gets.slice(0, 3).sort()).toEqual(['one', 'three', 'two']);
    expect(gets.slice(3)).toEqual(gets.slice(0, 3));
    const posts = await namesOf(`${cluster.nginx.url}/mcp`, 3, 'POST');
    expect(posts.sort()).toEqual(['one', 'three', 'two']);
  });

  it('forwards the Host the client sent, port included', async () => {
    await using cluster = await startCluster();
    const response = await fetch(`${cluster.nginx.url}/mcp`);
    const body = (await response.json()) as { host: string };
    expect(body.host).toBe(`127.0.0.1:${cluster.nginx.port}`);
  });

  it('passes each server-sent event on as it is written, before the response ends', async () => {
    await using cluster = await startCluster();
    const response = await fetch(`${cluster.nginx.url}/events`);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const reader = response.body!.getReader();
    // Buffered, events would wait for a full buffer or the response's end, which only the test causes.
    const next = async () => {
      const chunk = await Promise.race([
        reader.read(),
        new Promise<never>((_, reject) =>
          setTimeout(() => reject(new Error('no event within 2 s: nginx is buffering')), 2000),
        ),
      ]);
      return new TextDecoder().decode(chunk.value);
    };
    expect(await next()).toMatch(/^data: hello from \w+\n\n$/);
    const open = cluster.upstreams.flatMap((upstream) => upstream.streams);
    expect(open).toHaveLength(1);
    open[0]!.write('data: second\n\n');
    expect(await next()).toBe('data: second\n\n');
    open[0]!.end('data: bye\n\n');
    expect(await next()).toBe('data: bye\n\n');
    expect((await reader.read()).done).toBe(true);
  });

  it('lets a replica feel a client that does not read: nginx holds no backlog for it', async () => {
    await using cluster = await startCluster();
    // Rondo cuts a stream whose client leaves megabytes unread (maxStreamBacklogBytes); a proxy
    // that buffered the response would read it all and hide the slow client from the replica.
    const client = connect(cluster.nginx.port, '127.0.0.1');
    await once(client, 'connect');
    client.write(`GET /flood HTTP/1.1\r\nHost: 127.0.0.1:${cluster.nginx.port}\r\n\r\n`);
    client.pause();
    const written = await Promise.any(cluster.upstreams.map((upstream) => upstream.flooded));
    expect(written).toBeLessThan(FLOOD_BYTES / 2);
    client.destroy();
  });

  it('skips a replica that stopped, for GET and POST, and answers every request', async () => {
    await using cluster = await startCluster();
    // Warm keep-alive connections to every replica, so the dead one also has pooled connections.
    await namesOf(`${cluster.nginx.url}/mcp`, 3);
    await cluster.upstreams[1]!.stop();
    const names = [
      ...(await namesOf(`${cluster.nginx.url}/mcp`, 4)),
      ...(await namesOf(`${cluster.nginx.url}/mcp`, 4, 'POST')),
    ];
    expect(names).not.toContain('two');
    expect(new Set(names)).toEqual(new Set(['one', 'three']));
  });

  it('passes a WebSocket upgrade on /ws to a replica', async () => {
    await using cluster = await startCluster();
    const socket = new WebSocket(`${cluster.nginx.url.replace('http', 'ws')}/ws`);
    await once(socket, 'open');
    socket.send('ping');
    const [reply] = (await once(socket, 'message')) as [Buffer];
    expect(String(reply)).toMatch(/^(one|two|three): ping$/);
    socket.close();
    await once(socket, 'close');
  });
});

describe('renderSite', () => {
  it('replaces only the upstream servers and the listen line, keeping their parameters', async () => {
    const template = await readFile(DEPLOY_SITE, 'utf8');
    const site = renderSite(template, {
      upstreams: ['127.0.0.1:4001', '127.0.0.1:4002'],
      listen: '127.0.0.1:9000',
    });
    expect(site.match(/^\s*server \S+ max_fails=1 fail_timeout=10s;$/gm)).toEqual([
      '    server 127.0.0.1:4001 max_fails=1 fail_timeout=10s;',
      '    server 127.0.0.1:4002 max_fails=1 fail_timeout=10s;',
    ]);
    expect(site).toContain('    listen 127.0.0.1:9000;');
    expect(site).not.toMatch(/replica\d:3000|listen 80;/);
    expect(site.replace(/^\s*(server|listen) .*\n/gm, '')).toBe(
      template.replace(/^\s*(server|listen) .*\n/gm, ''),
    );
  });

  it('refuses a site whose upstream block it cannot find', () => {
    expect(() =>
      renderSite('server { listen 80; }', { upstreams: ['127.0.0.1:1'], listen: '127.0.0.1:2' }),
    ).toThrow(NginxTemplateError);
  });
});
