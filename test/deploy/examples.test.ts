import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { build } from 'esbuild';
import { Miniflare } from 'miniflare';
import { describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';

// The deploy guide's examples (docs/deploy.md), each run where it is meant to run: the Worker in
// workerd (miniflare) from its wrangler.toml, the Deno and Bun servers on their runtimes, the Hono
// and Fastify apps on Node. Each answers the official v2 client; the long-lived ones also keep a
// legacy session for the v1 client.
const examples = fileURLToPath(
  new URL('../../packages/transport-http/examples/deploy/', import.meta.url),
);
const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

async function addsWithModernClient(url: URL): Promise<void> {
  const client = new Client(
    { name: 'deploy-example', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(new StreamableHTTPClientTransport(url));
  try {
    const result = await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } });
    expect(result.content).toEqual([{ type: 'text', text: '5' }]);
  } finally {
    await client.close();
  }
}

async function addsInLegacySession(url: URL): Promise<void> {
  const client = new LegacyClient({ name: 'deploy-example-v1', version: '1.0.0' });
  const transport = new LegacyTransport(url);
  await client.connect(transport);
  try {
    expect(transport.sessionId).toMatch(/^[\x21-\x7E]+$/);
    const result = await client.callTool({ name: 'add', arguments: { a: 4, b: 5 } });
    expect(result.content).toEqual([{ type: 'text', text: '9' }]);
  } finally {
    await client.close();
  }
}

/** Runs a runtime's example as a process until it prints its URL; stopped with SIGTERM. */
async function runExample(
  command: string[],
  port: number,
): Promise<{ url: URL; child: ChildProcess }> {
  const [program, ...args] = command;
  const child = spawn(program!, args, {
    cwd: repoRoot,
    env: { ...process.env, PORT: String(port), DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group: node_modules/.bin/deno is a Node shim over the real binary.
    detached: true,
  });
  let output = '';
  const url = await new Promise<URL>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL in time: ${output}`)), scaled(20_000));
    const read = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const match = /MCP server at (\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(new URL(match[1]!));
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${output}`)));
  });
  return { url, child };
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    process.kill(-child.pid!, 'SIGTERM');
  });
}

async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

describe('the deploy examples', () => {
  it('Worker: wrangler.toml and its entry serve the modern era in workerd', async () => {
    const toml = readFileSync(`${examples}worker/wrangler.toml`, 'utf8');
    const field = (name: string) => new RegExp(`^${name} = "([^"]*)"`, 'm').exec(toml)?.[1] ?? '';
    const bundled = await build({
      entryPoints: [`${examples}worker/${field('main')}`],
      bundle: true,
      format: 'esm',
      platform: 'neutral',
      mainFields: ['module', 'main'],
      conditions: ['workerd', 'worker', 'browser'],
      write: false,
      logLevel: 'silent',
    });
    const worker = new Miniflare({
      modules: [{ type: 'ESModule', path: 'index.js', contents: bundled.outputFiles[0]!.text }],
      compatibilityDate: field('compatibility_date'),
      bindings: { ALLOWED_HOSTS: field('ALLOWED_HOSTS') },
      host: '127.0.0.1',
      port: await freePort(),
    });
    try {
      const base = await worker.ready;
      await addsWithModernClient(new URL('/mcp', base));
    } finally {
      await worker.dispose();
    }
  });

  for (const [name, command] of [
    [
      'Deno',
      [
        'node_modules/.bin/deno',
        'run',
        '--allow-net',
        '--allow-env',
        '--allow-read',
        `${examples}deno/main.ts`,
      ],
    ],
    ['Bun', ['node_modules/.bin/bun', 'run', `${examples}bun/server.ts`]],
  ] as const) {
    it(`${name}: the server serves both eras`, async () => {
      const { url, child } = await runExample([...command], await freePort());
      try {
        await addsWithModernClient(url);
        await addsInLegacySession(url);
      } finally {
        await stop(child);
      }
    });
  }

  it('Hono: the app serves its own route and both eras at /mcp (on Node)', async () => {
    const { app, mcp } = await import('../../packages/transport-http/examples/deploy/hono/app.js');
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
    await new Promise((resolve) => server.once('listening', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      expect(await (await fetch(base)).text()).toBe('Hello from Hono');
      await addsWithModernClient(new URL('/mcp', base));
      await addsInLegacySession(new URL('/mcp', base));
    } finally {
      await mcp.close();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('Fastify: the app serves its own route and both eras at /mcp', async () => {
    const { buildApp } =
      await import('../../packages/transport-http/examples/deploy/fastify/app.js');
    const app = await buildApp();
    await app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    try {
      expect(await (await fetch(base)).text()).toBe('Hello from Fastify');
      await addsWithModernClient(new URL('/mcp', base));
      await addsInLegacySession(new URL('/mcp', base));
    } finally {
      await app.close();
    }
  });
});
