import { spawn } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { reportReady } from './control.js';

/**
 * The floor of any process between a client and a server on stdio: the Rondo contender
 * (`rondo.js --transport stdio`, a child of this process, so its CPU counts here too) behind a
 * process that copies bytes both ways and reads none of them. A gateway that parses, routes and
 * re-frames each message costs at least this.
 *
 * With `--json`, the floor of a process that reads what it relays: each line is parsed, given an
 * id of the relay's own (a gateway shares an upstream among callers, so it cannot keep theirs),
 * serialised and sent on; each answer is parsed, given back the caller's id and serialised; the
 * messages of one input chunk go out in one write. No MCP logic: what any gateway that looks
 * inside messages pays before routing, policy or era rules.
 *
 *   node stdioRelay.js [--json]
 */
const RONDO = fileURLToPath(new URL('./rondo.js', import.meta.url));

const child = spawn(process.execPath, [RONDO, '--transport', 'stdio'], {
  stdio: ['pipe', 'pipe', 'inherit', 'ipc'],
});
child.on('message', (message: { type?: string }) => {
  if (message.type === 'ready') reportReady({});
});
// The four stdio entries above are pipes, so both streams exist.
const upstreamIn = child.stdin!;
const upstreamOut = child.stdout!;
if (process.argv.includes('--json')) {
  const callers = new Map<number, unknown>();
  let nextId = 0;
  relayLines(process.stdin, upstreamIn, (message) => {
    const id = ++nextId;
    callers.set(id, message.id);
    message.id = id;
  });
  relayLines(upstreamOut, process.stdout, (message) => {
    const id = message.id as number;
    message.id = callers.get(id);
    callers.delete(id);
  });
} else {
  process.stdin.pipe(upstreamIn);
  upstreamOut.pipe(process.stdout);
}
process.stdin.once('end', () => child.kill());

/** Relays JSON lines from `source` to `sink`, each message parsed, changed by `rewrite`, serialised. */
function relayLines(
  source: Readable,
  sink: Writable,
  rewrite: (message: Record<string, unknown>) => void,
): void {
  let pending = '';
  source.setEncoding('utf8');
  source.on('data', (chunk: string) => {
    const lines = (pending + chunk).split('\n');
    pending = lines.pop() ?? '';
    let out = '';
    for (const line of lines) {
      if (line.length === 0) continue;
      const message = JSON.parse(line) as Record<string, unknown>;
      rewrite(message);
      out += `${JSON.stringify(message)}\n`;
    }
    if (out !== '') sink.write(out);
  });
}
