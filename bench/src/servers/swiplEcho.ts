import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { argument, reportReady } from './control.js';

/**
 * The bridge's physical limit: the same number of `swipl` processes as the bridge's workers,
 * each a bare JSON-lines echo (`prolog/json_echo.pl`: parse a line, write it back). Messages go
 * to the processes in turn and may be pipelined; over stdio each echoed line is written out as
 * is, over HTTP it is the response body. No MCP work at all, so the bridge's share of this is
 * what its protocol, pool and Node side cost.
 *
 *   node swiplEcho.js --transport stdio|http [--processes N]
 */

const ECHO_PL = fileURLToPath(new URL('../../prolog/json_echo.pl', import.meta.url));

/** One echo process: lines in, the same lines back in order. */
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
const echo = (line: string): Promise<string> => processes[next++ % processes.length]!.send(line);

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
