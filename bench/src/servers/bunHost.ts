import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { argument, reportReady } from './control.js';

/**
 * Starts a server under Bun (the binary of the `bun` npm package): Rondo's fetch handler
 * (`bunServer.js`, the default) or bare `Bun.serve` answering a fixed JSON (`--server bare`,
 * `bunBare.js`), and reports its port over Node IPC for it. The orchestrator measures the whole
 * process tree (CPU time, peak RSS), so Bun's numbers include this idle host process.
 *
 *   node bunHost.js [--server rondo|bare] [--response echo|list|mrtr] [--tools N]
 */
const bun = fileURLToPath(new URL('../../../node_modules/.bin/bun', import.meta.url));
const bare = argument('server', 'rondo') === 'bare';
const script = fileURLToPath(new URL(bare ? './bunBare.js' : './bunServer.js', import.meta.url));
const args = ['--tools', argument('tools', bare ? '1000' : '0')];
if (bare) args.push('--response', argument('response', 'echo'));
const child = spawn(bun, [script, ...args], {
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
