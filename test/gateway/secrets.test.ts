import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Client, httpTransport } from '@rondo/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';
import {
  EVERYTHING_MAIN,
  FIXTURE_MAIN,
  GATEWAY_MAIN,
  startGateway,
  writeConfig,
  type RunningGateway,
} from './support.js';

// Issue 38 (secrets), done-when 3, the environment half of 4, and 6's wire errors: what the
// gateway holds for itself (its state key, an entry's client secret, its own variables, the
// upstream's stderr, a URL's query or password) reaches neither an upstream nor a caller.

const run = promisify(execFile);
const LEAKY = fileURLToPath(new URL('./leakyUpstream.mjs', import.meta.url));

/** An HTTP server on 127.0.0.1 that records the paths asked and answers with `reply`. */
async function recording(
  reply: (path: string, res: ServerResponse, base: string) => void,
): Promise<{ base: string; seen: string[]; server: Server }> {
  const seen: string[] = [];
  let base = '';
  const server = createServer((req, res) => {
    req.resume();
    seen.push(req.url ?? '/');
    reply(req.url ?? '/', res, base);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { base, seen, server };
}

/** The conformance fixture on HTTP, on a port the kernel picks. */
async function startHttpFixture(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [FIXTURE_MAIN, '--transport', 'http', '--port', '0'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      stderr += chunk;
      const found = /serving http at (http:\/\/\S+)/.exec(stderr);
      if (found) resolve(found[1]!);
    });
    child.once('exit', (code) => reject(new Error(`fixture exited (${code}): ${stderr}`)));
  });
  return { child, url };
}

function textOf(result: { content: unknown[] }): string {
  return (result.content as { text?: string }[])[0]?.text ?? '';
}

describe('rondo-gateway keeps its secrets', { timeout: scaled(90_000) }, () => {
  let gateway: RunningGateway;
  let client: Client;
  let foreignAs: Awaited<ReturnType<typeof recording>>;
  let trustedAs: Awaited<ReturnType<typeof recording>>;
  let hostileRs: Awaited<ReturnType<typeof recording>>;
  let fixture: Awaited<ReturnType<typeof startHttpFixture>>;
  const marker = join(mkdtempSync(join(tmpdir(), 'rondo-leaky-')), 'crashed');

  beforeAll(async () => {
    foreignAs = await recording((_path, res) => {
      res.writeHead(404).end();
    });
    trustedAs = await recording((_path, res) => {
      res.writeHead(404).end();
    });
    // An upstream whose every answer is 401, naming the foreign authorization server.
    hostileRs = await recording((path, res, base) => {
      if (path.startsWith('/.well-known/oauth-protected-resource')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(
          JSON.stringify({ resource: `${base}/mcp`, authorization_servers: [foreignAs.base] }),
        );
      }
      res.writeHead(401, {
        'www-authenticate': `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`,
      });
      res.end();
    });
    fixture = await startHttpFixture();
    const config = writeConfig({
      everything: {
        command: process.execPath,
        args: [EVERYTHING_MAIN, 'stdio'],
        env: { ENTRY_GREETING: 'from-the-entry' },
        include: ['get-env', 'echo'],
      },
      reports: {
        url: `${hostileRs.base}/mcp`,
        oauth: {
          clientId: 'rondo-gateway',
          issuer: trustedAs.base,
          clientSecretEnv: 'REPORTS_SECRET',
        },
      },
      remote: { url: `${fixture.url}?api_key=query-secret-0042`, include: ['test_simple_text'] },
      leaky: { command: process.execPath, args: [LEAKY, marker] },
    });
    gateway = await startGateway(config, [], {
      env: { REPORTS_SECRET: 'client-secret-0042', GATEWAY_OWN_VARIABLE: 'gateway-only-0042' },
    });
    client = new Client({ transport: httpTransport({ url: gateway.url.href }), era: '2026-07-28' });
    await client.connect();
    const wanted = ['everything_get-env', 'leaky_crash', 'remote_test_simple_text'];
    const deadline = Date.now() + 30_000;
    for (;;) {
      const names = new Set((await client.listAllTools()).map((tool) => tool.name));
      if (wanted.every((name) => names.has(name)) || Date.now() > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }, scaled(90_000));
  afterAll(async () => {
    await client?.close();
    await gateway?.close();
    fixture?.child.kill('SIGTERM');
    for (const server of [foreignAs, trustedAs, hostileRs]) server?.server.close();
  });

  it("gives a stdio upstream the entry's env and the allowlist, none of the gateway's variables", async () => {
    const env = JSON.parse(textOf(await client.callTool('everything_get-env'))) as Record<
      string,
      string
    >;
    expect(env.ENTRY_GREETING).toBe('from-the-entry');
    expect(env.PATH).toBe(process.env.PATH);
    for (const name of ['RONDO_STATE_KEY', 'REPORTS_SECRET', 'GATEWAY_OWN_VARIABLE']) {
      expect(env[name]).toBeUndefined();
    }
    const allowed = new Set(['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER', 'ENTRY_GREETING']);
    // What a Node process adds to its own environment at start (none is the gateway's).
    const unexpected = Object.keys(env).filter(
      (name) => !allowed.has(name) && !name.startsWith('npm_'),
    );
    expect(unexpected.filter((name) => name in process.env)).toEqual([]);
  });

  it('sends nothing to an authorization server the upstream names that is not the issuer', async () => {
    await expect.poll(() => hostileRs.seen.length, { timeout: 30_000 }).toBeGreaterThan(1);
    expect(hostileRs.seen.some((path) => path.startsWith('/.well-known/'))).toBe(true);
    expect(foreignAs.seen).toEqual([]);
    expect(trustedAs.seen).toEqual([]);
  });

  it("names no URL query in an error of a remote upstream's failure", async () => {
    expect(textOf(await client.callTool('remote_test_simple_text'))).toContain('simple text');
    fixture.child.kill('SIGKILL');
    const failure = (await client
      .callTool('remote_test_simple_text')
      .catch((e: unknown) => e)) as Error;
    expect(failure).toMatchObject({
      code: -32603,
      message: expect.stringContaining('Upstream "remote"'),
    });
    expect(failure.message).not.toContain('query-secret-0042');
    expect(failure.message).not.toContain('api_key');
  });

  it("keeps a crashed upstream's stderr out of callers' errors", async () => {
    await expect(client.callTool('leaky_crash')).rejects.toMatchObject({
      message: 'Upstream "leaky" exited during the call',
    });
    const down = (await client.callTool('leaky_ok').catch((e: unknown) => e)) as Error;
    expect(down.message).toMatch(/^Upstream "leaky" is unavailable \(the server process exited/);
    expect(down.message).not.toContain('stderr-secret-0042');
  });
});

describe('rondo-gateway check', { timeout: scaled(60_000) }, () => {
  it("shows the operator a failed upstream's stderr and URLs with their secrets replaced", async () => {
    const marker = join(mkdtempSync(join(tmpdir(), 'rondo-leaky-')), 'crashed');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(marker, 'crashed');
    const config = writeConfig({
      leaky: { command: process.execPath, args: [LEAKY, marker] },
      basic: { url: 'http://operator:pass-0042@127.0.0.1:9/mcp?api_key=query-secret-0042' },
    });
    const failure = await run(process.execPath, [GATEWAY_MAIN, 'check', config]).catch(
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    expect(failure).toMatchObject({ code: 1 });
    const output = `${failure.stdout}${failure.stderr}`;
    expect(output).toMatch(/leaky: failed: .*stderr: leaky: token=stderr-secret-0042/);
    expect(output).toMatch(/basic: failed: .*http:\/\/\*\*\*@127\.0\.0\.1:9\/mcp\?api_key=\*\*\*/);
    expect(output).not.toContain('pass-0042');
    expect(output).not.toContain('query-secret-0042');
  });
});
