import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A real `redis-server` a test started on a free 127.0.0.1 port. */
export interface RedisServer {
  readonly url: string;
  readonly port: number;
  /** The process id of the running server (to freeze it with SIGSTOP, say). */
  readonly pid: number;
  /** Kills the server (SIGKILL: it keeps nothing anyway) and removes its folder. */
  stop(): Promise<void>;
  /** Kills the server (when it runs) and starts a new, empty one on the same port. */
  restart(): Promise<void>;
  /** Kills the server and leaves it down until {@link up}: an outage. */
  down(): Promise<void>;
  /** Starts a new, empty server on the same port after {@link down}. */
  up(): Promise<void>;
}

/**
 * Starts Debian's `redis-server` (apt package `redis-server`, installed by `bootstrap.sh --tests`)
 * on a free port, with nothing saved to disk (`--save '' --appendonly no`), in a temporary folder.
 * Resolves once it accepts connections.
 */
export async function startRedisServer(): Promise<RedisServer> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'rondo-redis-'));
  let child = await launch(port, dir);
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    get pid() {
      return child.pid ?? 0;
    },
    async stop() {
      await kill(child);
      rmSync(dir, { recursive: true, force: true });
    },
    async restart() {
      await kill(child);
      child = await launch(port, dir);
    },
    async down() {
      await kill(child);
    },
    async up() {
      child = await launch(port, dir);
    },
  };
}

async function launch(port: number, dir: string): Promise<ChildProcess> {
  mkdirSync(dir, { recursive: true });
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += String(chunk)));
  child.stderr?.on('data', (chunk: Buffer) => (output += String(chunk)));
  const exited = new Promise<never>((_, reject) => {
    child.once('error', (error) =>
      reject(new Error(`redis-server could not start (is it installed?): ${error.message}`)),
    );
    child.once('exit', (code) => reject(new Error(`redis-server exited with ${code}:\n${output}`)));
  });
  exited.catch(() => {});
  await Promise.race([waitForPort(port), exited]);
  return child;
}

async function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

/** Resolves once something accepts connections on the port (at most 10 s). */
async function waitForPort(port: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`redis-server did not listen on ${port} in 10 s`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A port nothing listens on now. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}
