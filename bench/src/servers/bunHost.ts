import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { argument, reportReady } from './control.js';

/**
 * Starts `bunServer.js` under Bun (the binary of the `bun` npm package) and reports its port over
 * Node IPC for it. The orchestrator measures the whole process tree (CPU time, peak RSS), so Bun's
 * numbers include this idle host process.
 */
const bun = fileURLToPath(new URL('../../../node_modules/.bin/bun', import.meta.url));
const script = fileURLToPath(new URL('./bunServer.js', import.meta.url));
const child = spawn(bun, [script, '--tools', argument('tools', '0')], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
let output = '';
let reported = false;
child.stdout.on('data', (chunk: Buffer) => {
  output += chunk.toString('utf8');
  const match = /port (\d+)/.exec(output);
  if (match && !reported) {
    reported = true;
    reportReady({ port: Number(match[1]), path: '/mcp' });
  }
});
child.once('exit', (code) => process.exit(code ?? 1));
const stop = () => child.kill('SIGTERM');
process.once('SIGTERM', stop);
process.once('disconnect', stop);
