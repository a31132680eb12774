import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { REPO_ROOT } from './runtimes.js';

/** The built fixture CLI, `rondo-fixture`. */
export const FIXTURE_CLI = `${REPO_ROOT}apps/conformance-fixture/dist/main.js`;

/** A fixture CLI serving WebSocket on a free port. */
export interface FixtureProcess {
  url: string;
  stop(): Promise<void>;
}

/** Starts `rondo-fixture --transport ws --port 0` and waits for the URL it prints on stderr. */
export async function startFixtureProcess(): Promise<FixtureProcess> {
  if (!existsSync(FIXTURE_CLI)) throw new Error(`the fixture is not built: ${FIXTURE_CLI}`);
  const child = spawn(process.execPath, [FIXTURE_CLI, '--transport', 'ws', '--port', '0'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let stderr = '';
    const timer = setTimeout(
      () => reject(new Error(`the fixture did not start:\n${stderr}`)),
      15_000,
    );
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += String(chunk);
      const found = /serving ws at (ws:\/\/\S+)/.exec(stderr);
      if (found) {
        clearTimeout(timer);
        resolve(found[1]!);
      }
    });
    child.once('exit', (code) => reject(new Error(`the fixture exited with ${code}:\n${stderr}`)));
  });
  return { url, stop: () => stopChild(child) };
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
  await exited;
  clearTimeout(timer);
}
