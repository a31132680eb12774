import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';
import { BIRDS_PL, requireBuiltHost } from './support/paths.js';

// Issue 29: a desktop client shows only "Connection closed" for a server that exits at start.
// rondo-logtalk answers the client's first request with the diagnostic instead, then exits.

const dir = mkdtempSync(join(tmpdir(), 'rondo-start-failure-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A provider whose tool names a predicate it does not define: line 3. */
const mistaken = join(dir, 'mistaken.pl');
writeFileSync(mistaken, ':- module(mistaken, []).\n\ntools([tool(add, nowhere, 3)]).\n');

/** What a desktop client passes: nothing but a PATH and a HOME (`env -i PATH=... HOME=...`). */
const desktopPath = `${dirname(process.execPath)}:/usr/local/bin:/usr/bin:/bin`;
const desktop = (...args: string[]) => ({
  command: '/usr/bin/env',
  args: ['-i', `PATH=${desktopPath}`, `HOME=${dir}`, process.execPath, requireBuiltHost(), ...args],
  stderr: 'pipe' as const,
});

async function connectError(params: ReturnType<typeof desktop>): Promise<Error> {
  const client = new Client({ name: 'desktop', version: '1.0.0' });
  const failure = await client.connect(new StdioClientTransport(params)).then(
    () => new Error('connected to a server that should not have started'),
    (error: unknown) => error as Error,
  );
  await client.close();
  return failure;
}

describe(
  'a rondo-logtalk that cannot start, started by a desktop client',
  { timeout: scaled(60_000) },
  () => {
    it('answers the official v1 client with the file:line diagnostic', async () => {
      const failure = await connectError(desktop(mistaken));
      expect(failure.message).toContain(`${mistaken}:3:`);
      expect(failure.message).toContain('nowhere/3');
    });

    it('answers a missing file the same way', async () => {
      const missing = join(dir, 'missing.pl');
      expect((await connectError(desktop(missing))).message).toContain(
        `file not found: ${missing}`,
      );
    });

    it('says in one line how to fix a swipl that is not there', async () => {
      const failure = await connectError(desktop('--swipl', '/nowhere/swipl', BIRDS_PL));
      expect(failure.message).toContain('SWI-Prolog not found: /nowhere/swipl does not exist');
      const run = spawnSync(process.execPath, [requireBuiltHost(), BIRDS_PL], {
        env: { PATH: '/nowhere', HOME: dir },
        input: '',
        encoding: 'utf8',
        timeout: 30_000,
      });
      expect(run.status).toBe(1);
      expect(run.stderr).toContain('SWI-Prolog not found: "swipl" is not on the PATH (/nowhere)');
      expect(run.stderr).not.toMatch(/ENOENT|\n\s+at /);
    });

    it('answers a 2026-07-28 request with the same error, then exits 1', async () => {
      const child = spawn(process.execPath, [requireBuiltHost(), mistaken], {
        env: { PATH: desktopPath, HOME: dir },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
      const meta = {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientCapabilities': {},
      };
      child.stdin.write('{"jsonrpc":"2.0","method":"notifications/cancelled","params":{}}\n');
      child.stdin.write(
        `${JSON.stringify({ jsonrpc: '2.0', id: 'a', method: 'tools/list', params: { _meta: meta } })}\n`,
      );
      expect(await exited).toBe(1);
      const answer = JSON.parse(stdout) as { id: string; error: { code: number; message: string } };
      expect(answer).toMatchObject({ id: 'a', error: { code: -32603 } });
      expect(answer.error.message).toContain(`${mistaken}:3:`);
      expect(stderr).toContain(`${mistaken}:3:`);
    });
  },
);

describe('rondo-logtalk on a port in use', { timeout: scaled(60_000) }, () => {
  it('says so in one line, without a stack trace, and exits 1', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as { port: number };
    try {
      const run = spawnSync(
        process.execPath,
        [requireBuiltHost(), '--transport', 'http', '--port', String(port), BIRDS_PL],
        { encoding: 'utf8', timeout: 30_000, env: { PATH: process.env.PATH ?? '' } },
      );
      expect(run.status).toBe(1);
      expect(run.stderr.trim().split('\n')).toEqual([
        `rondo-logtalk: cannot listen on 127.0.0.1:${port}: the port is in use; pick another with --port (0 picks a free one)`,
      ]);
    } finally {
      taken.close();
    }
  });
});
