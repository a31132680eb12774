import { spawn, type ChildProcess } from 'node:child_process';
import { serializeMessage, type JsonRpcMessage } from '@rondo/protocol';
import { ClientStateError, ServerExitedError, TransportError } from '../errors.js';
import { DEFAULT_MAX_FRAME_BYTES } from '../frames.js';
import type { ClientTransport, TransportSink } from '../transport.js';
import { childEnvironment } from './childEnvironment.js';
import { LineSplitter } from './lineSplitter.js';
import { StderrTail } from './stderrTail.js';

/** How long a write that found the pipe broken waits for the server's exit to report it (ms). */
const EXIT_AFTER_BROKEN_PIPE_MS = 2000;

/** How to start a server process. */
export interface StdioTransportOptions {
  /** The command to run. */
  readonly command: string;
  readonly args?: readonly string[];
  /** Added to the environment the server starts with (a value of `undefined` removes a variable). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /**
   * True (default): the server starts with this process's whole environment. False: only the
   * allowlist of {@link defaultEnvironment} (HOME, PATH, USER...), as desktop hosts start servers,
   * so a server sees none of the client's own secrets; `env` adds what it needs.
   */
  readonly inheritEnv?: boolean;
  readonly cwd?: string;
  /** Longest line the server may write (bytes). Default 16 MiB. */
  readonly maxLineBytes?: number;
  /** How much of the server's stderr is kept (the tail, in bytes). Default 64 KiB. */
  readonly stderrBytes?: number;
  /** Called with each chunk the server writes to stderr, besides keeping its tail. */
  readonly onStderr?: (text: string) => void;
  /** How long `close()` waits after SIGTERM before SIGKILL (ms). Default 2,000. */
  readonly killAfterMs?: number;
}

/** A transport to a server run as a child process speaking newline-delimited JSON on stdio. */
export interface StdioClientTransport extends ClientTransport {
  /** The tail of what the server wrote to stderr so far. */
  readonly stderr: string;
  /** The child's process id, once started. */
  readonly pid: number | undefined;
}

/** Spawns a server and talks to it over its stdin and stdout; stderr is kept apart. */
export function stdioTransport(options: StdioTransportOptions): StdioClientTransport {
  return new StdioTransport(options);
}

class StdioTransport implements StdioClientTransport {
  readonly endpointKey: string;
  private child: ChildProcess | undefined;
  private readonly tail: StderrTail;
  private closing = false;
  private exited: Promise<void> | undefined;
  /** Why the process ended, once it has (unless {@link close} ended it). */
  private exit: ServerExitedError | undefined;
  /** The lines of this turn's messages, written together by {@link flush}. */
  private outbox = '';
  /** Settles with the write of this turn's batch: every message in it shares one promise. */
  private outboxWritten: OutboxWrite | undefined;

  constructor(private readonly options: StdioTransportOptions) {
    this.endpointKey = `stdio:${[options.command, ...(options.args ?? [])].join(' ')}`;
    this.tail = new StderrTail(options.stderrBytes ?? 64 * 1024);
  }

  get stderr(): string {
    return this.tail.text;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  async start(sink: TransportSink): Promise<void> {
    const child = spawn(this.options.command, [...(this.options.args ?? [])], {
      cwd: this.options.cwd,
      env: childEnvironment(this.options.inheritEnv ?? true, this.options.env),
      stdio: ['pipe', 'pipe', 'pipe'],
      // Its own process group, so close() ends whatever the server started too.
      detached: process.platform !== 'win32',
    });
    this.child = child;
    const lines = new LineSplitter(
      this.options.maxLineBytes ?? DEFAULT_MAX_FRAME_BYTES,
      (line) => sink.receive(line),
      (error) => sink.refused(error),
    );
    child.stdout.on('data', (chunk: Buffer) => lines.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => {
      this.tail.push(chunk);
      this.options.onStderr?.(chunk.toString('utf8'));
    });
    // A write to a child that has gone is reported by 'exit'; the stream error adds nothing.
    child.stdin.on('error', () => undefined);
    this.exited = new Promise((resolve) => {
      child.once('close', (code, signal) => {
        resolve();
        if (this.closing) return sink.closed();
        this.exit = new ServerExitedError(
          `the server process exited (code ${String(code)}, signal ${String(signal)})`,
          code,
          signal,
          this.tail.text,
        );
        sink.closed(this.exit);
      });
    });
    await new Promise<void>((resolve, reject) => {
      child.once('spawn', resolve);
      child.once('error', (error) =>
        reject(
          new TransportError(startFailure(this.options.command, error), undefined, {
            cause: error,
          }),
        ),
      );
    });
  }

  send(message: JsonRpcMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin || !stdin.writable) {
      return Promise.reject(new ClientStateError('the server process is not running'));
    }
    this.outbox += `${serializeMessage(message)}\n`;
    // The messages of one turn of the event loop go out in one write, and share one promise of
    // it: a pipe write, or a promise, per message costs more than the rest of a small request.
    if (this.outboxWritten === undefined) {
      this.outboxWritten = new OutboxWrite();
      setImmediate(this.flush);
    }
    return this.outboxWritten.promise;
  }

  private readonly flush = (): void => {
    const batch = this.outbox;
    const written = this.outboxWritten!;
    this.outbox = '';
    this.outboxWritten = undefined;
    const stdin = this.child?.stdin;
    if (!stdin || !stdin.writable) {
      return written.reject(new ClientStateError('the server process is not running'));
    }
    stdin.write(batch, (error) => {
      if (!error) return written.resolve();
      void this.writeFailure(error).then((failure) => written.reject(failure));
    });
  };

  /**
   * Why a write failed. A broken pipe means the server is exiting, and its exit status and last
   * words say why where `EPIPE` does not: so the exit is awaited a moment, as a busy machine
   * reports the broken pipe before the exit.
   */
  private async writeFailure(error: NodeJS.ErrnoException): Promise<Error> {
    if (error.code === 'EPIPE' || error.code === 'ECONNRESET') {
      let timer: NodeJS.Timeout | undefined;
      const waited = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, EXIT_AFTER_BROKEN_PIPE_MS);
      });
      await Promise.race([this.exited, waited]);
      clearTimeout(timer);
      if (this.exit) return this.exit;
    }
    return new TransportError(`cannot write to the server: ${error.message}`, undefined, {
      cause: error,
    });
  }

  async close(): Promise<void> {
    const child = this.child;
    if (!child || this.closing) return this.exited;
    this.closing = true;
    child.stdin?.end();
    if (child.exitCode === null && child.signalCode === null) {
      this.signal(child, 'SIGTERM');
      const timer = setTimeout(
        () => this.signal(child, 'SIGKILL'),
        this.options.killAfterMs ?? 2000,
      );
      await this.exited;
      clearTimeout(timer);
    }
  }

  private signal(child: ChildProcess, signal: NodeJS.Signals): void {
    try {
      if (child.pid !== undefined && process.platform !== 'win32') process.kill(-child.pid, signal);
      else child.kill(signal);
    } catch {
      // Already gone.
    }
  }
}

/**
 * Why a command did not start, with the fix for the two common mistakes of a configuration: a
 * whole command line as `command` (`"npx -y pkg"`), and a program the PATH does not find (a
 * desktop host's PATH is short).
 */
export function startFailure(command: string, error: NodeJS.ErrnoException): string {
  const said = `cannot start ${command}: ${error.message}`;
  if (error.code !== 'ENOENT') return said;
  const [program, ...rest] = command.trim().split(/\s+/);
  if (rest.length > 0) {
    const args = JSON.stringify(rest);
    return `${said} (command names one program: give its arguments as args, "command": "${program}", "args": ${args})`;
  }
  return `${said} (not found: give its absolute path, or a PATH in env that holds it)`;
}

/** The write of one batch of messages, as the promise each of its messages' senders gets. */
class OutboxWrite {
  readonly promise: Promise<void>;
  resolve!: () => void;
  reject!: (error: Error) => void;

  constructor() {
    this.promise = new Promise((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
  }
}
