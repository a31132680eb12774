import { spawn, type ChildProcess } from 'node:child_process';
import { hostStdioParams } from './birds.js';

/** `rondo-logtalk` serving HTTP or WebSocket on a free port, as a subprocess. */
export interface HostProcess {
  url: string;
  stderr(): string;
  stop(): Promise<void>;
}

/** Starts `rondo-logtalk --transport T --port 0 FILE...` and waits for the URL it prints on stderr. */
export async function startHostProcess(
  transport: 'http' | 'ws',
  files: string[],
  extraArgs: string[] = [],
): Promise<HostProcess> {
  const params = hostStdioParams(files, ['--transport', transport, '--port', '0', ...extraArgs]);
  const child = spawn(params.command, params.args, {
    env: params.env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`rondo-logtalk did not start:\n${stderr}`)),
      30_000,
    );
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += String(chunk);
      const found = / over (?:http|ws) at (\S+)/.exec(stderr);
      if (found) {
        clearTimeout(timer);
        resolve(found[1]!);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`rondo-logtalk exited with ${code}:\n${stderr}`));
    });
  });
  return { url, stderr: () => stderr, stop: () => stopChild(child) };
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
  await exited;
  clearTimeout(timer);
}
