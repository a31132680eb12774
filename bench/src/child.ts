import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { SliceResult } from './load/slice.js';
import type { CountersMessage, MemoryMessage, ReadyMessage } from './servers/control.js';

/**
 * How to start one contender: a server script under `dist/servers` and its arguments, or a client
 * under test (`dist/clients/callLoop`), which makes its own load and measures its own slices.
 */
export interface ServerSpec {
  script:
    | 'ceiling'
    | 'honoBare'
    | 'sdk'
    | 'rondo'
    | 'bunHost'
    | 'swiplEcho'
    | 'replicas'
    | 'gateway'
    | 'fixture'
    | 'stdioRelay'
    | 'callLoop';
  args: string[];
}

const STDERR_TAIL = 4000;

/**
 * A server under test in its own process: its RSS is its own and load generation never shares
 * its event loop. Node IPC carries control; stdin/stdout are the stdio transport's.
 */
export class ServerChild {
  private stderr = '';
  private exited = false;

  private constructor(
    readonly process: ChildProcess,
    readonly ready: ReadyMessage,
  ) {
    process.stderr?.on('data', (chunk: Buffer) => {
      this.stderr = (this.stderr + chunk.toString('utf8')).slice(-STDERR_TAIL);
    });
    process.once('exit', () => (this.exited = true));
  }

  /** Starts a server and waits for its ready message (or its early death). */
  static async start(spec: ServerSpec, timeoutMs = 60_000): Promise<ServerChild> {
    const folder = spec.script === 'callLoop' ? 'clients' : 'servers';
    const script = fileURLToPath(new URL(`./${folder}/${spec.script}.js`, import.meta.url));
    const child = fork(script, spec.args, {
      execArgv: ['--expose-gc'],
      stdio: ['pipe', 'pipe', 'pipe', 'ipc'],
    });
    let stderr = '';
    child.stderr?.on(
      'data',
      (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-STDERR_TAIL)),
    );
    const ready = await new Promise<ReadyMessage>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`${spec.script} did not start in ${timeoutMs} ms`)),
        timeoutMs,
      );
      child.on('message', (message: ReadyMessage) => {
        if (message.type !== 'ready') return;
        clearTimeout(timer);
        resolve(message);
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(
          new Error(
            `${spec.script} ${spec.args.join(' ')} exited (${code}) before ready: ${stderr}`,
          ),
        );
      });
    });
    return new ServerChild(child, ready);
  }

  /** The HTTP or WebSocket URL the server reported. */
  url(scheme: 'http' | 'ws'): string {
    return `${scheme}://127.0.0.1:${this.ready.port ?? 0}${this.ready.path ?? '/'}`;
  }

  /** The server's memory, after a full GC when `gc` is set. */
  memory(gc: boolean): Promise<MemoryMessage> {
    return this.ask<MemoryMessage>({ type: 'memory', gc });
  }

  /** What the server has counted so far (Redis commands sent, when it uses Redis). */
  counters(): Promise<CountersMessage> {
    return this.ask<CountersMessage>({ type: 'counters' });
  }

  /** Has a client under test run one slice of calls and report it (with its own CPU time). */
  slice(durationMs: number): Promise<SliceResult> {
    return this.ask<SliceResult & { type: 'slice' }>({ type: 'slice', durationMs });
  }

  /** Sends a control question and resolves with the first answer of the same type. */
  private ask<Answer extends { type: string }>(question: {
    type: Answer['type'];
    gc?: boolean;
    durationMs?: number;
  }): Promise<Answer> {
    return new Promise((resolve) => {
      const onMessage = (message: Answer) => {
        if (message.type !== question.type) return;
        this.process.off('message', onMessage);
        resolve(message);
      };
      this.process.on('message', onMessage);
      this.process.send(question);
    });
  }

  /**
   * Peak resident memory of the server and every process it started (the bridge's Prolog workers),
   * from the kernel's high-water marks.
   */
  peakRss(): number {
    return processTree(this.process.pid ?? 0).reduce(
      (sum, pid) => sum + statusKiB(pid, 'VmHWM') * 1024,
      0,
    );
  }

  /**
   * CPU time (user + system, milliseconds) the server's process tree has used so far: per request,
   * a measure that other load on the machine disturbs far less than throughput.
   */
  cpuMs(): number {
    return (
      processTree(this.process.pid ?? 0).reduce((sum, pid) => sum + cpuTicks(pid), 0) *
      (1000 / CLOCK_TICKS)
    );
  }

  /** The last lines the server wrote on stderr, for failure reports. */
  get stderrTail(): string {
    return this.stderr;
  }

  /** Stops the server: SIGTERM, then SIGKILL after a grace period. */
  async stop(graceMs = 3000): Promise<void> {
    if (this.exited) return;
    const gone = new Promise<void>((resolve) => this.process.once('exit', () => resolve()));
    this.process.kill('SIGTERM');
    const timer = setTimeout(() => this.process.kill('SIGKILL'), graceMs);
    await gone;
    clearTimeout(timer);
  }
}

function processTree(pid: number): number[] {
  let children: number[] = [];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    // Not Linux, or the process is gone: count what we can.
  }
  return [pid, ...children.flatMap(processTree)];
}

/** USER_HZ: the unit of utime/stime in /proc/<pid>/stat, 100 on Linux. */
const CLOCK_TICKS = 100;

function cpuTicks(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the parenthesised command name; utime and stime are the 14th and 15th fields.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}

function statusKiB(pid: number, field: string): number {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(
      readFileSync(`/proc/${pid}/status`, 'utf8'),
    );
    return match ? Number(match[1]) : 0;
  } catch {
    return 0;
  }
}
