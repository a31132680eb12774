import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { repoRoot } from './packedPackages.js';

const run = promisify(execFile);

/** A Verdaccio registry this process started, and the npm config that publishes to it. */
export interface LocalRegistry {
  /** Its URL, with a trailing slash. */
  url: string;
  /** The registry everything else comes from (npm's configured one), which it proxies. */
  upstream: string;
  /** An npmrc naming the registry and the token of a user created on it. */
  npmrc: string;
  /** Verdaccio's output, for failure messages. */
  output(): string;
  close(): Promise<void>;
}

/** A port nobody listens on now. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** The registry packages other than Rondo's come from: the one npm is configured with. */
async function upstreamRegistry(): Promise<string> {
  const { stdout } = await run('npm', ['config', 'get', 'registry']);
  return stdout.trim() || 'https://registry.npmjs.org/';
}

function verdaccioConfig(folder: string, upstream: string): string {
  // Rondo's own names are served only from what is published here, never from upstream.
  const local = '    access: $all\n    publish: $authenticated\n    unpublish: $authenticated\n';
  return [
    `storage: ${join(folder, 'storage')}`,
    'auth:',
    '  htpasswd:',
    `    file: ${join(folder, 'htpasswd')}`,
    '    max_users: 10',
    'uplinks:',
    '  upstream:',
    `    url: ${upstream}`,
    '    timeout: 60s',
    'packages:',
    "  '@rondo/*':",
    local,
    "  'create-rondo':",
    local,
    "  '**':",
    '    access: $all',
    '    proxy: upstream',
    'log: { type: stdout, format: pretty, level: warn }',
    '',
  ].join('\n');
}

async function untilUp(url: string, child: ChildProcess, deadlineMs: number): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`verdaccio exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${url}-/ping`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`verdaccio did not answer ${url}-/ping within ${deadlineMs} ms`);
}

/** Creates a user the way `npm adduser` does and returns its token. */
async function addUser(url: string): Promise<string> {
  const name = 'rondo-release-test';
  const response = await fetch(`${url}-/user/org.couchdb.user:${name}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name, password: 'release-test-password', type: 'user' }),
  });
  const body = (await response.json()) as { token?: string };
  if (!response.ok || !body.token) throw new Error(`adduser: ${response.status}`);
  return body.token;
}

/** Starts Verdaccio (the workspace's pinned copy) on a free port, storing everything in `folder`. */
export async function startRegistry(folder: string): Promise<LocalRegistry> {
  mkdirSync(folder, { recursive: true });
  const config = join(folder, 'config.yaml');
  const upstream = await upstreamRegistry();
  writeFileSync(config, verdaccioConfig(folder, upstream));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  const bin = join(repoRoot, 'node_modules', 'verdaccio', 'bin', 'verdaccio');
  const child = spawn(
    process.execPath,
    [bin, '--config', config, '--listen', `127.0.0.1:${port}`],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const close = async () => {
    if (child.exitCode !== null) return;
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  };
  try {
    await untilUp(url, child, 30_000);
    const npmrc = join(folder, 'npmrc');
    const token = await addUser(url);
    writeFileSync(npmrc, `registry=${url}\n//127.0.0.1:${port}/:_authToken=${token}\n`);
    return { url, upstream, npmrc, output: () => output, close };
  } catch (failure) {
    await close();
    throw new Error(`${(failure as Error).message}\n${output}`);
  }
}
