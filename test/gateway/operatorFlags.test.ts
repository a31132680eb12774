import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@rondo/client';
import { stdioTransport } from '@rondo/client/node';
import { describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';
import { EVERYTHING_MAIN, FIXTURE_MAIN, GATEWAY_MAIN, writeConfig } from './support.js';

// Issue 40: what an operator runs the gateway with: --version, a port in use refused at once in
// one line before any upstream starts, the operator's endpoints on --admin-port for a stdio
// gateway and beside a WebSocket one, and JSON log lines.

const run = promisify(execFile);

/** A config whose one upstream leaves a file behind when it starts. */
function markingConfig(): { config: string; marker: string } {
  const marker = join(mkdtempSync(join(tmpdir(), 'rondo-marker-')), 'started');
  const script = `require('fs').writeFileSync(${JSON.stringify(marker)}, 'x'); process.stdin.resume();`;
  return {
    config: writeConfig({ marked: { command: process.execPath, args: ['-e', script] } }),
    marker,
  };
}

function occupy(): Promise<Server> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}

/** Runs the gateway to its end; its exit code, stderr and the time it took. */
function runToEnd(args: string[]): Promise<{ code: number | null; stderr: string; ms: number }> {
  const started = Date.now();
  const child = spawn(process.execPath, [GATEWAY_MAIN, ...args], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve) =>
    child.on('exit', (code) => resolve({ code, stderr, ms: Date.now() - started })),
  );
}

describe('rondo-gateway flags', { timeout: scaled(60_000) }, () => {
  it('prints its version', async () => {
    const { stdout } = await run(process.execPath, [GATEWAY_MAIN, '--version']);
    expect(stdout).toMatch(/^rondo-gateway \d+\.\d+\.\d+\n$/);
  });

  it('fails check on a misspelled key, naming the key meant', async () => {
    const config = writeConfig({
      files: { command: process.execPath, args: [FIXTURE_MAIN], exlude: ['test_simple_text'] },
    });
    const { code, stderr } = await runToEnd(['check', config]);
    expect(code).toBe(2);
    expect(stderr).toBe(
      `rondo-gateway: ${config}: mcpServers.files: unknown key "exlude" (did you mean "exclude"?)\n`,
    );
  });

  it.each(['--port', '--admin-port'])(
    'refuses a %s in use with one line, before any upstream starts',
    async (flag) => {
      const taken = await occupy();
      const port = (taken.address() as { port: number }).port;
      const { config, marker } = markingConfig();
      try {
        const transport = flag === '--port' ? ['--transport', 'http'] : [];
        const { code, stderr, ms } = await runToEnd([...transport, flag, String(port), config]);
        expect(code).toBe(1);
        expect(stderr).toBe(`rondo-gateway: port ${port} on 127.0.0.1 is in use\n`);
        expect(existsSync(marker)).toBe(false);
        // A Node process starting and ending on two busy cores; the refusal itself waits for nothing.
        expect(ms).toBeLessThan(scaled(3000));
      } finally {
        taken.close();
      }
    },
  );

  it('serves /healthz, /readyz and /metrics on --admin-port beside stdio, with JSON log lines', async () => {
    const config = writeConfig({ fixture: { command: process.execPath, args: [FIXTURE_MAIN] } });
    const transport = stdioTransport({
      command: process.execPath,
      args: [GATEWAY_MAIN, '--admin-port', '0', '--log-format', 'json', '--wait-upstreams', config],
    });
    const client = new Client({ transport, era: '2025-11-25' });
    await client.connect();
    try {
      await expect.poll(() => transport.stderr, { timeout: 20_000 }).toContain('"gateway.serving"');
      const events = transport.stderr
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      for (const event of events) {
        expect(event).toMatchObject({ time: expect.any(String), level: expect.any(String) });
      }
      expect(events).toContainEqual(
        expect.objectContaining({
          event: 'upstream.connected',
          upstream: 'fixture',
          era: 'modern',
        }),
      );
      const serving = events.find((event) => event.event === 'gateway.serving')!;
      const admin = new URL(serving.adminUrl as string);
      const ready = await fetch(new URL('/readyz', admin));
      expect(ready.status).toBe(200);
      expect(await ready.json()).toMatchObject({
        status: 'ready',
        upstreams: { fixture: { state: 'connected', era: 'modern' } },
      });
      expect((await fetch(new URL('/healthz', admin))).status).toBe(200);
      expect(await (await fetch(new URL('/metrics', admin))).text()).toContain(
        'rondo_gateway_upstream_state{upstream="fixture",state="connected"} 1',
      );
      expect((await fetch(new URL('/mcp', admin))).status).toBe(404);
      expect((await fetch(new URL('/healthz', admin), { method: 'POST' })).status).toBe(405);
      expect((await client.listAllTools()).length).toBeGreaterThan(0);
    } finally {
      await client.close();
    }
  });

  it('serves the operator endpoints beside a WebSocket listener', async () => {
    const config = writeConfig({
      everything: { command: process.execPath, args: [EVERYTHING_MAIN] },
    });
    const child = spawn(
      process.execPath,
      [GATEWAY_MAIN, '--transport', 'ws', '--port', '0', config],
      {
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    try {
      await expect.poll(() => stderr, { timeout: 20_000 }).toMatch(/serving .* at ws:\/\/\S+/);
      const url = new URL(/at (ws:\/\/\S+)/.exec(stderr)![1]!.replace(/^ws/, 'http'));
      const health = await fetch(new URL('/healthz', url));
      expect(health.status).toBe(200);
      await expect
        .poll(async () => (await fetch(new URL('/readyz', url))).status, { timeout: 20_000 })
        .toBe(200);
      // Anything else over plain HTTP is still told where the WebSocket endpoint is.
      expect((await fetch(url)).status).toBe(426);
    } finally {
      child.kill('SIGTERM');
    }
  });
});
