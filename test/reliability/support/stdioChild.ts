import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { FIXTURE_MAIN, fixtureServerParams } from '../../stdio/support/fixture.js';
import type { WireMessage } from '../../stdio/support/wire.js';

/**
 * The conformance fixture as a stdio child process, written to in raw chunks: every line it
 * writes must be a JSON-RPC message (anything else is recorded as noise).
 */
export class StdioChild {
  readonly child: ChildProcessWithoutNullStreams;
  readonly received: WireMessage[] = [];
  readonly noise: string[] = [];
  private rest = '';

  constructor() {
    const params = fixtureServerParams();
    this.child = spawn(params.command, [FIXTURE_MAIN, '--transport', 'stdio'], {
      env: params.env,
      stdio: 'pipe',
    });
    this.child.stderr.resume();
    this.child.stdout.setEncoding('utf8');
    this.child.stdout.on('data', (chunk: string) => {
      const lines = (this.rest + chunk).split('\n');
      this.rest = lines.pop() ?? '';
      for (const line of lines) {
        try {
          this.received.push(JSON.parse(line) as WireMessage);
        } catch {
          this.noise.push(line);
        }
      }
    });
  }

  /** Writes the chunks one event-loop turn apart, so the server sees them as separate reads. */
  async write(chunks: Buffer[]): Promise<void> {
    for (const chunk of chunks) {
      this.child.stdin.write(chunk);
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /** True while the process runs. */
  get alive(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Resident memory of the process now. */
  rssBytes(): number {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(
      readFileSync(`/proc/${this.child.pid}/status`, 'utf8'),
    );
    return Number(match?.[1] ?? 0) * 1024;
  }

  async stop(): Promise<void> {
    if (!this.alive) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.stdin.end();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  }
}
