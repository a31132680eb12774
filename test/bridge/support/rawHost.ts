import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import type { WireMessage } from '../../stdio/support/wire.js';
import { hostStdioParams } from './birds.js';
import { scaled } from '@rondo/test-support/timeFactor';

/**
 * `rondo-logtalk` over stdio as a raw subprocess: lines in, and every stdout line kept as text, so
 * a test can prove that nothing but JSON-RPC reaches stdout.
 */
export class RawHost {
  readonly child: ChildProcessWithoutNullStreams;
  /** Every line written to stdout, unparsed. */
  readonly lines: string[] = [];
  readonly sent: WireMessage[] = [];
  stderr = '';
  readonly exited: Promise<number | null>;
  private rest = '';

  constructor(files: string[], extraArgs: string[] = []) {
    const params = hostStdioParams(files, extraArgs);
    this.child = spawn(params.command, params.args, { env: params.env, stdio: 'pipe' });
    this.child.stdout.on('data', (chunk: Buffer) => {
      const parts = (this.rest + chunk.toString('utf8')).split('\n');
      this.rest = parts.pop() ?? '';
      this.lines.push(...parts);
    });
    this.child.stderr.on('data', (chunk: Buffer) => (this.stderr += chunk.toString('utf8')));
    this.exited = new Promise((resolve) => this.child.on('close', (code) => resolve(code)));
  }

  /** The stdout lines parsed; throws on a line that is not JSON. */
  get messages(): WireMessage[] {
    return this.lines.map((line) => JSON.parse(line) as WireMessage);
  }

  /** Sends a request and waits for its response. */
  async request(id: number, method: string, params: object = {}): Promise<WireMessage> {
    const message = { jsonrpc: '2.0', id, method, params } as WireMessage;
    this.sent.push(message);
    this.child.stdin.write(`${JSON.stringify(message)}\n`);
    return this.waitFor((m) => m.id === id && m.method === undefined);
  }

  notify(method: string): void {
    this.child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method })}\n`);
  }

  async waitFor(
    predicate: (message: WireMessage) => boolean,
    timeoutMs = scaled(15_000),
  ): Promise<WireMessage> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.messages.find(predicate);
      if (found) return found;
      if (Date.now() > deadline)
        throw new Error(
          `no matching message; stdout ${this.lines.slice(-3).join(' | ')}; stderr ${this.stderr}`,
        );
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** Ends stdin and waits for the exit code. */
  end(): Promise<number | null> {
    this.child.stdin.end();
    return this.exited;
  }

  kill(): void {
    if (this.child.exitCode === null) this.child.kill('SIGKILL');
  }
}
