import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { WireMessage } from './wire.js';
import { scaled } from '@rondo/test-support/timeFactor';

/** The built fixture CLI, spawned exactly as `pnpm fixture --transport stdio` runs it. */
export const FIXTURE_MAIN = fileURLToPath(
  new URL('../../../apps/conformance-fixture/dist/main.js', import.meta.url),
);

/** The `_meta` every modern request carries. */
export function modernMeta(capabilities: object = {}): Record<string, unknown> {
  return {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': capabilities,
    'io.modelcontextprotocol/clientInfo': { name: 'rondo-stdio-tests', version: '1.0.0' },
  };
}

/** Spawn parameters for the official clients' `StdioClientTransport`. */
export function fixtureServerParams() {
  if (!existsSync(FIXTURE_MAIN))
    throw new Error(`${FIXTURE_MAIN} is missing: run pnpm build first`);
  return {
    command: process.execPath,
    args: [FIXTURE_MAIN, '--transport', 'stdio'],
    // A fixed key keeps the fixture quiet about its per-process random one.
    env: {
      PATH: process.env.PATH ?? '',
      RONDO_STATE_KEY: 'rondo-stdio-interop-tests-key-0123456789',
    },
    stderr: 'pipe' as const,
  };
}

type Line = WireMessage;

/**
 * The fixture as a raw subprocess: lines in, parsed lines out. Every line it writes is kept (for
 * schema validation) and must be JSON; a non-JSON line on stdout fails the test that reads it.
 */
export class RawFixture {
  readonly child: ChildProcessWithoutNullStreams;
  readonly lines: Line[] = [];
  /** Requests written, for knowing which method each response answers. */
  readonly sent: Line[] = [];
  stderr = '';
  private rest = '';
  private waiters: (() => void)[] = [];
  readonly exited: Promise<number | null>;

  constructor() {
    const params = fixtureServerParams();
    this.child = spawn(params.command, params.args, { env: params.env, stdio: 'pipe' });
    this.child.stdout.on('data', (chunk: Buffer) => this.take(chunk));
    this.child.stderr.on('data', (chunk: Buffer) => (this.stderr += chunk.toString('utf8')));
    this.exited = new Promise((resolve) => this.child.on('close', (code) => resolve(code)));
  }

  /** Writes one line (an object is serialised; a string is written as is, plus a newline). */
  send(message: object | string | Buffer): void {
    if (Buffer.isBuffer(message)) return void this.child.stdin.write(message);
    const text = typeof message === 'string' ? message : JSON.stringify(message);
    this.child.stdin.write(`${text}\n`);
    try {
      const parsed = JSON.parse(text) as Line;
      if (parsed && typeof parsed === 'object' && 'method' in parsed) this.sent.push(parsed);
    } catch {
      // Malformed on purpose: nothing to remember.
    }
  }

  /** Sends a request and waits for the response with its id. */
  async request(id: string | number, method: string, params?: object): Promise<Line> {
    this.send({ jsonrpc: '2.0', id, method, ...(params ? { params } : {}) });
    return this.waitFor((line) => line.id === id && !('method' in line));
  }

  /** Waits for the first line (from `from` on) matching `predicate`. */
  async waitFor(
    predicate: (line: Line) => boolean,
    timeoutMs = scaled(10_000),
    from = 0,
  ): Promise<Line> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.lines.slice(from).find(predicate);
      if (found) return found;
      if (Date.now() > deadline) {
        throw new Error(
          `no matching line within ${timeoutMs} ms; got ${JSON.stringify(this.lines.slice(-5))}`,
        );
      }
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 25);
      });
    }
  }

  /** Closes stdin and waits for the exit code. */
  async end(): Promise<number | null> {
    this.child.stdin.end();
    return this.exited;
  }

  /** Kills the process if it is still running (for cleanup). */
  kill(): void {
    if (this.child.exitCode === null) this.child.kill('SIGKILL');
  }

  private take(chunk: Buffer): void {
    const parts = (this.rest + chunk.toString('utf8')).split('\n');
    this.rest = parts.pop() ?? '';
    for (const part of parts) this.lines.push(JSON.parse(part) as Line);
    for (const wake of this.waiters.splice(0)) wake();
  }
}
