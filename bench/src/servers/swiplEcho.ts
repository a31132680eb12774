import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { argument, reportReady } from './control.js';

/**
 * The bridge's physical limit: the same number of `swipl` processes as the bridge's workers,
 * each a bare echo with no MCP work, so the bridge's share of it is what its protocol, pool and
 * Node side cost. Messages go to the processes in turn and may be pipelined.
 *
 * - `--format json` (`prolog/json_echo.pl`): each JSON line is parsed in Prolog and written back;
 *   over stdio the echoed line is written out as is, over HTTP it is the response body.
 * - `--format term` (`prolog/term_echo.pl`): each request is sent as a Prolog term in the bridge's
 *   conventions (as the bridge sends its calls), read with `read_term/3` and answered with one
 *   term per line; once answered, the request line is echoed back (the ceiling's answer).
 *
 *   node swiplEcho.js --transport stdio|http [--processes N] [--format json|term]
 */

const FORMAT = argument('format', 'json');
const ECHO_PL = fileURLToPath(
  new URL(`../../prolog/${FORMAT === 'term' ? 'term_echo' : 'json_echo'}.pl`, import.meta.url),
);

/** One echo process: lines in, one line back per line, in order. */
class EchoProcess {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly waiting: ((line: string) => void)[] = [];

  constructor() {
    this.child = spawn('swipl', ['-q', ECHO_PL], { stdio: 'pipe' });
    this.child.stderr.pipe(process.stderr);
    createInterface({ input: this.child.stdout }).on('line', (line) =>
      this.waiting.shift()?.(line),
    );
  }

  send(line: string): Promise<string> {
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      this.child.stdin.write(`${line}\n`);
    });
  }
}

const processes = Array.from(
  { length: Number(argument('processes', '2')) },
  () => new EchoProcess(),
);
let next = 0;
const echo = (line: string): Promise<string> => {
  const process = processes[next++ % processes.length]!;
  if (FORMAT !== 'term') return process.send(line);
  return process.send(`${termText(JSON.parse(line))} .`).then(() => line);
};

if (argument('transport', 'stdio') === 'stdio') {
  createInterface({ input: process.stdin }).on('line', (line) => {
    void echo(line).then((answer) => process.stdout.write(`${answer}\n`));
  });
  reportReady();
} else {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      void echo(body.replace(/\n/g, ' ')).then((answer) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(answer);
      });
    });
  });
  server.listen(0, '127.0.0.1', () =>
    reportReady({ port: (server.address() as AddressInfo).port, path: '/mcp' }),
  );
}

/**
 * A JSON value as the text of a Prolog term in the bridge's conventions (quoted atoms, curly
 * objects, `@(true)`), as the bridge writes its calls: a plain recursive version for the bench.
 */
function termText(value: unknown): string {
  if (typeof value === 'string') return quoted(value);
  if (typeof value === 'number') return String(value);
  if (typeof value === 'boolean' || value === null) return `@(${String(value)})`;
  if (Array.isArray(value)) return `[${value.map(termText).join(',')}]`;
  const members = Object.entries(value as Record<string, unknown>);
  if (members.length === 0) return '{}';
  return `{${members.map(([key, member]) => `${quoted(key)}- ${termText(member)}`).join(',')}}`;
}

function quoted(text: string): string {
  return `'${text.replace(/['\\]/g, (c) => `\\${c}`).replace(/\n/g, '\\n')}'`;
}
