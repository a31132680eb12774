import { spawn, type ChildProcess } from 'node:child_process';
import { connect, createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));

/** The runtimes the fetch handler is served on by `pnpm fixture:<runtime>`. */
export type Runtime = 'bun' | 'deno' | 'workerd';

/** A conformance fixture served by another runtime; `close` stops it (SIGTERM, then SIGKILL). */
export interface RuntimeFixture extends AsyncDisposable {
  url: URL;
  close(): Promise<void>;
}

/** Starts `pnpm fixture:<runtime> --port N` (its launcher, without pnpm) on a free port. */
export async function startRuntimeFixture(runtime: Runtime): Promise<RuntimeFixture> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    ['tooling/scripts/runtimeFixture.mjs', runtime, '--port', String(port)],
    // A process group of its own, so a SIGKILL reaches the runtime the launcher started too.
    { cwd: repoRoot, stdio: ['ignore', 'ignore', 'pipe'], detached: true },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const close = () => stop(child);
  const deadline = Date.now() + 30_000;
  while (!(await accepts(port))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await close();
      throw new Error(`the ${runtime} fixture did not listen on ${port}: ${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { url: new URL(`http://localhost:${port}/mcp`), close, [Symbol.asyncDispose]: close };
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const signal = (name: NodeJS.Signals) => {
      try {
        process.kill(-(child.pid ?? 0), name);
      } catch {
        // The group is gone already.
      }
    };
    const timer = setTimeout(() => signal('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    signal('SIGTERM');
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
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
