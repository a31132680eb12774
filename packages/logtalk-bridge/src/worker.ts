import { spawn, type ChildProcess } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import type { Json, JsonObject } from '@rondo/protocol';
import {
  PrologCancelledError,
  callFailure,
  PrologLoadError,
  PrologProtocolError,
  PrologTimeoutError,
  PrologWorkerError,
} from './errors.js';
import { readLines } from './lineReader.js';
import { parseWorkerMessage, type WorkerMessage } from './messages.js';
import { prologTerm } from './prologTerm.js';
import {
  refusal,
  type CallHandlers,
  type ClientQuestion,
  type WorkerLaunch,
} from './workerContract.js';
import { forwardOutput, lineFromText, logOutsideCall } from './workerOutput.js';

interface InFlight {
  id: number;
  resolve(value: Json): void;
  reject(error: Error): void;
  handlers: CallHandlers;
  timeoutMs: number;
  timer?: NodeJS.Timeout;
  detach(): void;
  /** The caller gave up: the worker may finish within the grace period, and nobody listens. */
  abandoned: boolean;
  /** The client question the worker is waiting on, if any. */
  asking?: ClientQuestion;
}

/** One `swipl` process running the bridge shim; one call at a time. */
export class PrologWorker {
  private readonly child: ChildProcess;
  private readonly channel: Writable;
  private inFlight: InFlight | undefined;
  private starting: { resolve(): void; reject(error: Error): void } | undefined;
  private seq = 0;
  private exited = false;
  private killed = false;
  /** How many goals of the broadcast log this worker has seen. */
  private replayed = 0;
  private readonly stderrTail: string[] = [];
  /** False once the worker died or was killed: it takes no more calls. */
  alive = true;
  /** Called once when the process is gone (with how it ended), so the pool can replace it. */
  onGone: ((how: string) => void) | undefined;
  /** Called when the worker has finished a call its caller gave up, and is free again. */
  onFree: (() => void) | undefined;

  private constructor(
    readonly id: number,
    private readonly launch: WorkerLaunch,
  ) {
    this.child = spawn(launch.command, launch.args, {
      env: launch.environment(id),
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
    forwardOutput(this.child.stderr!, 'stderr', id, launch, this.stderrTail);
    forwardOutput(this.child.stdout!, 'stdout', id, launch, this.stderrTail);
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

  /**
   * Sends one call and waits for its answer; the deadline does not run while the client is asked.
   * When `signal` aborts, the call is rejected at once and its goal interrupted (a question to
   * the client is answered `cancel`); only a worker still busy after the grace period is killed.
   */
  call(
    method: string,
    params: JsonObject,
    handlers: CallHandlers,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<Json> {
    const refused = !this.alive ? 'is not running' : this.inFlight ? 'is busy' : undefined;
    if (refused)
      return Promise.reject(new PrologWorkerError(this.id, `Prolog worker ${this.id} ${refused}`));
    if (signal?.aborted) return Promise.reject(this.cancelled());
    const id = ++this.seq;
    return new Promise<Json>((resolve, reject) => {
      const onAbort = (): void => this.abandon(call);
      const call: InFlight = {
        id,
        resolve,
        reject,
        handlers,
        timeoutMs,
        abandoned: false,
        detach: () => signal?.removeEventListener('abort', onAbort),
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.inFlight = call;
      this.armDeadline();
      this.replayBroadcasts();
      this.write({ op: 'call', id, method, params });
    });
  }

  /** True while a call runs, a call its caller gave up included. */
  get busy(): boolean {
    return this.inFlight !== undefined;
  }

  /** Kills the process at once (SIGKILL); whatever it still writes is ignored. */
  kill(): void {
    this.alive = false;
    this.killed = true;
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
    if (!this.exited) this.channel.write(`${prologTerm(message)}\n`);
  }

  /** Runs the goals other workers broadcast since this one last looked (before a call). */
  private replayBroadcasts(): void {
    const { goals } = this.launch.broadcasts;
    for (; this.replayed < goals.length; this.replayed++) {
      const { origin, goal } = goals[this.replayed]!;
      if (origin !== this.id) this.write({ op: 'replay', goal });
    }
  }

  private cancelled(): PrologCancelledError {
    return new PrologCancelledError(this.id, 'the call was cancelled');
  }

  private onLine(text: string): void {
    if (this.killed) return; // what a killed worker still had in the pipe concerns nobody
    const parsed = parseWorkerMessage(text, this.launch.maxMessageDepth);
    if (!parsed.ok) return this.protocolFault(parsed.problem);
    this.onMessage(parsed.message);
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
    if (message.type === 'broadcast')
      return void this.launch.broadcasts.goals.push({ origin: this.id, goal: message.goal });
    if (message.type === 'log' && message.id === undefined)
      return logOutsideCall(this.launch, this.id, message);
    const call = this.inFlight;
    if (!call || call.id !== message.id)
      return this.protocolFault(`a message for an unknown call ${message.id}`);
    if (call.abandoned) return this.onAbandonedMessage(call, message);
    switch (message.type) {
      case 'result':
        return this.settle(() => call.resolve(message.value));
      case 'failure':
        return this.settle(() => call.reject(callFailure(message)));
      case 'progress':
        return call.handlers.progress?.(message.progress, message.total, message.message);
      case 'log':
        return call.handlers.log?.(message.level, message.data, message.logger);
      case 'close_stream':
        return call.handlers.closeStream?.();
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
    what: ClientQuestion,
    ask: () => Promise<Json>,
  ): Promise<void> {
    clearTimeout(call.timer);
    call.asking = what;
    let value: Json;
    try {
      value = await ask();
    } catch (error) {
      if (call.abandoned) return;
      const reason = error instanceof Error ? error.message : String(error);
      this.launch.log({
        level: 'warning',
        workerId: this.id,
        source: 'bridge',
        message: `${what} request failed: ${reason}`,
      });
      value = refusal(what, reason);
    }
    if (this.inFlight !== call || call.abandoned) return; // abandon() has answered already
    call.asking = undefined;
    this.armDeadline();
    this.write({ op: 'answer', id: call.id, value });
  }

  /**
   * The caller gave up: it gets its cancellation now, while the worker is left to finish. A
   * question it is waiting on is answered with a refusal, so the Prolog code unwinds.
   */
  private abandon(call: InFlight): void {
    if (this.inFlight !== call || call.abandoned) return;
    call.abandoned = true;
    clearTimeout(call.timer);
    call.detach();
    call.reject(this.cancelled());
    // A goal waiting on the client unwinds on the refusal; any other is interrupted (SIGINT).
    if (call.asking) this.refuse(call, call.asking);
    else this.child.kill('SIGINT');
    call.timer = setTimeout(() => this.overstayed(call), this.launch.cancelGraceMs);
  }

  /** A message of an abandoned call: questions are refused at once, the rest is dropped. */
  private onAbandonedMessage(call: InFlight, message: WorkerMessage): void {
    switch (message.type) {
      case 'result':
      case 'failure':
        return this.settle(() => undefined);
      case 'elicit':
        return this.refuse(call, 'elicitation');
      case 'sampling':
      case 'roots':
        return this.refuse(call, message.type);
      case 'progress':
      case 'log':
      case 'close_stream':
      case 'ready':
      case 'load_error':
      case 'changed':
      case 'broadcast':
        return; // nobody is listening any more
    }
  }

  private refuse(call: InFlight, what: ClientQuestion): void {
    call.asking = undefined;
    this.write({ op: 'answer', id: call.id, value: refusal(what, 'the call was cancelled') });
  }

  private overstayed(call: InFlight): void {
    if (this.inFlight !== call) return;
    this.launch.log({
      level: 'warning',
      workerId: this.id,
      source: 'bridge',
      message: `worker ${this.id} did not finish a cancelled call within ${this.launch.cancelGraceMs} ms; it is replaced`,
    });
    this.kill();
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

  /** Ends the call in flight; an abandoned call's caller is gone, so the worker is just free. */
  private settle(finish: () => void): void {
    const call = this.inFlight;
    if (!call) return;
    clearTimeout(call.timer);
    call.detach();
    this.inFlight = undefined;
    if (!call.abandoned) return finish();
    if (this.alive) this.onFree?.();
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
    this.onGone?.(how);
  }
}
