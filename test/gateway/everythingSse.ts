import { spawn, type ChildProcess } from 'node:child_process';
import { freePort } from '../demo/demoProcess.js';
import { EVERYTHING_MAIN } from './support.js';
import { scaled } from '@rondo/test-support/timeFactor';

/** The official everything server in its own `sse` mode (the HTTP+SSE transport of 2024-11-05). */
export interface EverythingSse {
  readonly port: number;
  readonly url: string;
  stop(): Promise<void>;
}

/** Starts `server-everything sse` on a free port and waits until it listens. */
export async function startEverythingSse(): Promise<EverythingSse> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [EVERYTHING_MAIN, 'sse'], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no SSE server:\n${stderr}`)), scaled(30_000));
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      if (stderr.includes(`running on port ${port}`)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => reject(new Error(`SSE server exited (${code}):\n${stderr}`)));
  });
  return {
    port,
    url: `http://127.0.0.1:${port}/sse`,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
