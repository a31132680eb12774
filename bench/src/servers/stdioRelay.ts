import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { reportReady } from './control.js';

/**
 * The floor of any process between a client and a server on stdio: the Rondo contender
 * (`rondo.js --transport stdio`, a child of this process, so its CPU counts here too) behind a
 * process that copies bytes both ways and reads none of them. A gateway that parses, routes and
 * re-frames each message costs at least this.
 *
 *   node stdioRelay.js
 */
const RONDO = fileURLToPath(new URL('./rondo.js', import.meta.url));

const child = spawn(process.execPath, [RONDO, '--transport', 'stdio'], {
  stdio: ['pipe', 'pipe', 'inherit', 'ipc'],
});
child.on('message', (message: { type?: string }) => {
  if (message.type === 'ready') reportReady({});
});
// The four stdio entries above are pipes, so both streams exist.
process.stdin.pipe(child.stdin!);
child.stdout!.pipe(process.stdout);
process.stdin.once('end', () => child.kill());
