import { spawn, type ChildProcess } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import type { InputResponseValue, Json, JsonObject } from '@rondo/protocol';
import {
  PrologCallError,
  PrologCancelledError,
  PrologLoadError,
  PrologProtocolError,
  PrologTimeoutError,
  PrologWorkerError,
} from './errors.js';
import { readLines } from './lineReader.js';
import { parseWorkerMessage, type WorkerMessage } from './messages.js';

/** One line of worker output or bridge news, tagged with the worker it came from. */
export interface PrologLogEntry {
  level: 'debug' | 'info' | 'warning' | 'error';
  workerId?: number;
  source: 'stderr' | 'stdout' | 'bridge';
  message: string;
}

/** How to start a worker: the command line and what it loads. */
export interface WorkerLaunch {
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  /** The `init` message of a worker: flavour, files, object, scratch directory. */
  init(workerId: number): JsonObject;
  maxLineBytes: number;
  startTimeoutMs: number;
  log(entry: PrologLogEntry): void;
  /** Called once a worker's process is gone, to remove what it left behind. */
  cleanup?(workerId: number): void;
  /** A worker announced a change (`mcp_notify/1`), at any time. */
  changed?(change: WorkerChange, workerId: number): void;
}

/** A change a worker announced: a list (with the provider's new description) or one resource. */
export interface WorkerChange {
  what: 'tools' | 'prompts' | 'resources' | 'resource';
  description?: Json;
  uri?: string;
}

/** The log levels of MCP, as `mcp_log/2` names them. */
export type PrologLogLevel =
  'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency';

/**
 * What a call may do besides answering: report progress, log, ask the client (the `Elicit`
 * closure of tool_call/4, `mcp_sample/2`, `mcp_roots/1`).
 */
export interface CallHandlers {
  progress?(value: number, total?: number, message?: string): void;
  log?(level: PrologLogLevel, data: Json, logger?: string): void;
  elicit?(message: string, schema: JsonObject): Promise<InputResponseValue>;
  /** Asks the client's model; `request` is a vocabulary sampling request body. */
  sample?(request: JsonObject): Promise<Json>;
  /** Asks the client for its roots; answers a vocabulary `roots_result`. */
  roots?(): Promise<Json>;
}

interface InFlight {
  id: number;
  resolve(value: Json): void;
  reject(error: Error): void;
  handlers: CallHandlers;
  timeoutMs: number;
  timer?: NodeJS.Timeout;
  detach(): void;
}

/** One `swipl` process running the bridge shim; one call at a time. */
export class PrologWorker {
  private readonly child: ChildProcess;
  private readonly channel: Writable;
  private inFlight: InFlight | undefined;
  private starting: { resolve(): void; reject(error: Error): void } | undefined;
  private seq = 0;
  private exited = false;
  private readonly stderrTail: string[] = [];
  /** False once the worker died or was killed: it takes no more calls. */
  alive = true;
  /** Called once when the process is gone, so the pool can replace it. */
  onGone: (() => void) | undefined;

  private constructor(
    readonly id: number,
    private readonly launch: WorkerLaunch,
  ) {
    this.child = spawn(launch.command, launch.args, {
      env: launch.env,
      stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
    });
    const channel = this.child.stdio[3] as unknown as Readable & Writable;
    this.channel = channel;
    channel.on('error', () => undefined); // a dead worker's socket errors; the exit handler reports it
    readLines(channel, launch.maxLineBytes, {
      line: (text) => this.onLine(text),
      overflow: (size) =>
        this.protocolFault(`a message of more than ${launch.maxLineBytes} bytes (${size})`),
    });
    this.forward(this.child.stderr!, 'stderr');
    this.forward(this.child.stdout!, 'stdout');
    this.child.on('error', (error) =>
      this.onExit(`could not start ${launch.command}: ${error.message}`),
    );
    this.child.on('exit', (code, signal) =>
      this.onExit(signal ? `killed by ${signal}` : `exited with code ${code}`),
    );
  }

  /** Starts a worker and waits until it has loaded the user's files. */
  static async start(id: number, launch: WorkerLaunch): Promise<PrologWorker> {
    const worker = new PrologWorker(id, launch);
    await worker.handshake();
    return worker;
  }

  /** Sends one call and waits for its answer; the deadline does not run while the client is asked. */
  call(
    method: string,
    params: JsonObject,
    handlers: CallHandlers,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<Json> {
    if (!this.alive)
      return Promise.reject(
        new PrologWorkerError(this.id, `Prolog worker ${this.id} is not running`),
      );
    if (this.inFlight)
      return Promise.reject(new PrologWorkerError(this.id, `Prolog worker ${this.id} is busy`));
    const id = ++this.seq;
    return new Promise<Json>((resolve, reject) => {
      const onAbort = (): void =>
        this.abort(new PrologCancelledError(this.id, 'the call was cancelled'));
      signal?.addEventListener('abort', onAbort, { once: true });
      const detach = (): void => signal?.removeEventListener('abort', onAbort);
      this.inFlight = { id, resolve, reject, handlers, timeoutMs, detach };
      this.armDeadline();
      this.write({ op: 'call', id, method, params });
      if (signal?.aborted) onAbort();
    });
  }

  /** Kills the process at once (SIGKILL). */
  kill(): void {
    this.alive = false;
    if (!this.exited) this.child.kill('SIGKILL');
  }

  /** Ends the channel and sends SIGTERM, then SIGKILL if the process is still there after `graceMs`. */
  async close(graceMs: number): Promise<void> {
    this.alive = false;
    if (this.exited) return;
    const gone = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.channel.end();
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), graceMs);
    await gone;
    clearTimeout(timer);
  }

  private handshake(): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.kill();
        reject(
          new PrologWorkerError(
            this.id,
            `Prolog worker ${this.id} did not start within ${this.launch.startTimeoutMs} ms`,
          ),
        );
      }, this.launch.startTimeoutMs);
      this.starting = {
        resolve: () => (clearTimeout(timer), resolve()),
        reject: (error) => (clearTimeout(timer), reject(error)),
      };
      this.write({ op: 'init', ...this.launch.init(this.id) });
    });
  }

  private write(message: JsonObject): void {
    if (!this.exited) this.channel.write(`${JSON.stringify(message)}\n`);
  }

  private forward(stream: Readable, source: 'stderr' | 'stdout'): void {
    readLines(stream, this.launch.maxLineBytes, {
      line: (message) => {
        if (source === 'stderr' && this.stderrTail.push(message) > 20) this.stderrTail.shift();
        this.launch.log({
          level: source === 'stderr' ? 'info' : 'warning',
          workerId: this.id,
          source,
          message,
        });
      },
      overflow: () =>
        this.launch.log({
          level: 'warning',
          workerId: this.id,
          source,
          message: '(overlong line dropped)',
        }),
    });
  }

  private onLine(text: string): void {
    const message = parseWorkerMessage(text);
    if (!message)
      return this.protocolFault(`non-protocol output ${JSON.stringify(text.slice(0, 200))}`);
    this.onMessage(message);
  }

  private onMessage(message: WorkerMessage): void {
    const starting = this.starting;
    if (message.type === 'ready' || message.type === 'load_error') {
      if (!starting) return this.protocolFault(`an unexpected ${message.type} message`);
      this.starting = undefined;
      if (message.type === 'ready') return starting.resolve();
      const line = message.line ?? lineFromText(message.message);
      return starting.reject(new PrologLoadError(message.file, line, message.message.trim()));
    }
    if (message.type === 'changed') return this.launch.changed?.(message, this.id);
    if (message.type === 'log' && message.id === undefined) return this.logOutsideCall(message);
    const call = this.inFlight;
    if (!call || call.id !== message.id)
      return this.protocolFault(`a message for an unknown call ${message.id}`);
    switch (message.type) {
      case 'result':
        return this.settle(() => call.resolve(message.value));
      case 'failure':
        return this.settle(() => call.reject(new PrologCallError(message.kind, message.message)));
      case 'progress':
        return call.handlers.progress?.(message.progress, message.total, message.message);
      case 'log':
        return call.handlers.log?.(message.level, message.data, message.logger);
      case 'elicit':
        return void this.answerClient(call, 'elicitation', async () =>
          call.handlers.elicit
            ? ((await call.handlers.elicit(message.message, message.schema)) as unknown as Json)
            : { kind: 'cancel' },
        );
      case 'sampling':
        return void this.answerClient(call, 'sampling', () =>
          call.handlers.sample
            ? call.handlers.sample(message.request)
            : Promise.reject(new Error('this call cannot ask the client')),
        );
      case 'roots':
        return void this.answerClient(call, 'roots', () =>
          call.handlers.roots
            ? call.handlers.roots()
            : Promise.reject(new Error('this call cannot ask the client')),
        );
    }
  }

  /**
   * Asks the client on the worker's behalf and writes the answer back; the deadline stops while
   * the client thinks. A failed elicitation answers `cancel` (Logtalk's rule); a failed sampling
   * or roots request answers an error the Prolog side raises as an exception.
   */
  private async answerClient(
    call: InFlight,
    what: 'elicitation' | 'sampling' | 'roots',
    ask: () => Promise<Json>,
  ): Promise<void> {
    clearTimeout(call.timer);
    let value: Json;
    try {
      value = await ask();
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      this.launch.log({
        level: 'warning',
        workerId: this.id,
        source: 'bridge',
        message: `${what} request failed: ${reason}`,
      });
      value = what === 'elicitation' ? { kind: 'cancel' } : { kind: 'error', message: reason };
    }
    if (this.inFlight !== call) return;
    this.armDeadline();
    this.write({ op: 'answer', id: call.id, value });
  }

  private logOutsideCall(message: { level: PrologLogLevel; data: Json }): void {
    const text = typeof message.data === 'string' ? message.data : JSON.stringify(message.data);
    this.launch.log({
      level: toLocal(message.level),
      workerId: this.id,
      source: 'bridge',
      message: text,
    });
  }

  private armDeadline(): void {
    const call = this.inFlight;
    if (!call) return;
    clearTimeout(call.timer);
    call.timer = setTimeout(
      () =>
        this.abort(
          new PrologTimeoutError(
            this.id,
            `the call ran past its deadline of ${call.timeoutMs} ms; worker ${this.id} was replaced`,
          ),
        ),
      call.timeoutMs,
    );
  }

  private settle(finish: () => void): void {
    const call = this.inFlight;
    if (!call) return;
    clearTimeout(call.timer);
    call.detach();
    this.inFlight = undefined;
    finish();
  }

  private abort(error: Error): void {
    const call = this.inFlight;
    this.kill();
    if (call) this.settle(() => call.reject(error));
  }

  private protocolFault(what: string): void {
    const error = new PrologProtocolError(
      this.id,
      `Prolog worker ${this.id} wrote ${what} on the protocol channel; it was replaced`,
    );
    this.launch.log({
      level: 'error',
      workerId: this.id,
      source: 'bridge',
      message: error.message,
    });
    if (this.starting) this.starting.reject(error);
    this.abort(error);
  }

  private onExit(how: string): void {
    if (this.exited) return;
    this.exited = true;
    this.alive = false;
    this.launch.cleanup?.(this.id);
    const tail = this.stderrTail.length > 0 ? `: ${this.stderrTail.join(' | ')}` : '';
    this.starting?.reject(
      new PrologWorkerError(this.id, `Prolog worker ${this.id} ${how} while starting${tail}`),
    );
    const call = this.inFlight;
    if (call)
      this.settle(() =>
        call.reject(
          new PrologWorkerError(
            this.id,
            `Prolog worker ${this.id} ${how} during the call; it was replaced`,
          ),
        ),
      );
    this.onGone?.();
  }
}

/** An MCP log level as one of the bridge's own (coarser) levels. */
function toLocal(level: PrologLogLevel): PrologLogEntry['level'] {
  if (level === 'debug' || level === 'info' || level === 'warning') return level;
  return level === 'notice' ? 'info' : 'error';
}

/** Logtalk prints "at or above line N" / "between lines N-M" rather than a structured line. */
function lineFromText(text: string): number | undefined {
  const match = /(?:line|lines) (\d+)/.exec(text) ?? /:(\d+):\d+:/.exec(text);
  return match?.[1] === undefined ? undefined : Number(match[1]);
}
