import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A `redis-server` a contender started for itself on a free 127.0.0.1 port. */
export interface BenchRedis {
  readonly url: string;
  /** Kills it (SIGKILL: it saves nothing) and removes its folder; safe to call twice. */
  stop(): void;
}

/**
 * Starts Debian's `redis-server` (`bash tooling/scripts/bootstrap.sh --cluster` installs it) with
 * nothing saved to disk, in a temporary folder, and resolves once it accepts connections. The
 * contender's process starts it, so Redis's CPU time and memory count in that contender's tree.
 */
export async function startBenchRedis(): Promise<BenchRedis> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'rondo-bench-redis-'));
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  let failure: string | undefined;
  child.once('error', (error) => (failure = `redis-server could not start (${error.message})`));
  child.once('exit', (code, signal) => (failure ??= `redis-server exited (${signal ?? code})`));
  const stop = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await untilListening(port, () => failure);
  } catch (error) {
    stop();
    throw error;
  }
  return { url: `redis://127.0.0.1:${port}`, stop };
}

/** Resolves once something accepts connections on `port`; rejects when Redis failed or after 10 s. */
async function untilListening(port: number, failed: () => string | undefined): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await accepts(port))) {
    const failure = failed();
    if (failure)
      throw new Error(`${failure}; install it with bash tooling/scripts/bootstrap.sh --cluster`);
    if (Date.now() > deadline) throw new Error(`redis-server did not listen on ${port} in 10 s`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** A TCP port nothing listens on now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no free port');
  return address.port;
}
