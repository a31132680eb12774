import type { Cancellation } from '@rondo/core';
import type { Json, JsonObject } from '@rondo/protocol';
import { BroadcastReplay } from './broadcastReplay.js';
import { CallTable } from './callTable.js';
import { PrologProtocolError, PrologWorkerError } from './errors.js';
import { readLines } from './lineReader.js';
import { parseWorkerMessage, type WorkerMessage } from './messages.js';
import { InterruptList, WorkerChannel } from './workerChannel.js';
import type { CallHandlers, WorkerLaunch } from './workerContract.js';
import { cancelledCall, type InFlight } from './workerCall.js';
import { LossRecord, PrologNotRunError } from './workerLoss.js';
import { logOutsideCall } from './workerOutput.js';
import { WorkerStart } from './workerStart.js';
import { WorkerProcess } from './workerProcess.js';

/**
 * One `swipl` process running the bridge shim: its life (protocol channel, signals, loss) here,
 * its start in a {@link WorkerStart}, its share of the pool's broadcasts in a
 * {@link BroadcastReplay}, its calls in a {@link CallTable}. It runs one call at a time, but up to
 * `launch.maxInFlight` calls may be written to it ahead: it answers them in order.
 */
export class PrologWorker {
  private readonly swipl: WorkerProcess;
  private readonly channel: WorkerChannel;
  private readonly interrupts: InterruptList;
  /** The calls written to the worker and not answered yet. */
  private readonly calls: CallTable;
  private readonly startup: WorkerStart;
  private readonly broadcasts: BroadcastReplay;
  private seq = 0;
  private exited = false;
  private killed = false;
  /** Which calls the worker started, for when it is lost. */
  private readonly loss: LossRecord;
  /** False once the worker died or was killed: it takes no more calls. */
  alive = true;
  /** Called once when the process is gone (with how it ended), so the pool can replace it. */
  onGone: ((how: string) => void) | undefined;
  /** Called when the worker has room for another call again (a call ended, a question was answered). */
  onFree: (() => void) | undefined;

  private constructor(
    readonly id: number,
    private readonly launch: WorkerLaunch,
  ) {
    this.startup = new WorkerStart(id, launch);
    this.broadcasts = new BroadcastReplay(id, launch.broadcasts);
    this.swipl = new WorkerProcess(id, launch, {
      ended: (how) => this.onExit(how),
      notInstalled: (error) => this.startup.fail(error),
    });
    const channel = this.swipl.channel;
    this.channel = new WorkerChannel(channel, () => !this.exited);
    this.interrupts = new InterruptList(id);
    this.calls = new CallTable({
      id,
      cancelGraceMs: launch.cancelGraceMs,
      maxInFlight: launch.maxInFlight,
      alive: () => this.alive,
      write: (message) => this.channel.write(message),
      interrupt: (ids) => this.interrupt(ids),
      timedOut: (error) => this.abort(error),
      overstayed: () => this.kill(),
      warn: (message) => this.report('warning', message),
      free: () => this.onFree?.(),
    });
    this.loss = new LossRecord(id, (failureOf) => this.calls.endAll(failureOf));
    channel.on('error', () => undefined); // a dead worker's socket errors; the exit handler reports it
    readLines(channel, launch.maxLineBytes, {
      line: (text) => this.onLine(text),
      overflow: (size) =>
        this.protocolFault(`a message of more than ${launch.maxLineBytes} bytes (${size})`),
      end: () => this.loss.drainedChannel(),
    });
  }

  /** Starts a worker and waits until it has loaded the user's files. */
  static async start(id: number, launch: WorkerLaunch): Promise<PrologWorker> {
    const worker = new PrologWorker(id, launch);
    const extra = {
      interrupts: worker.interrupts.path,
      answerBatch: answerBatch(launch.maxInFlight),
    };
    await worker.startup.begin(
      (message) => worker.channel.write(message),
      extra,
      () => worker.kill(),
    );
    return worker;
  }

  /**
   * Sends one call and waits for its answer; the deadline does not run while the client is asked.
   * When the caller gives up (`cancel`), the call is rejected at once and its goal interrupted (a question to
   * the client is answered `cancel`); only a worker still busy after the grace period is killed.
   * A worker holding `maxInFlight` calls refuses one more; whether to write a call behind the
   * running one is the pool's choice ({@link accepting}), made before it hands the worker out.
   */
  call(
    method: string,
    params: JsonObject,
    handlers: CallHandlers,
    timeoutMs: number,
    cancel?: Cancellation,
  ): Promise<Json> {
    if (!this.alive)
      return Promise.reject(new PrologNotRunError(this.id, new Error('it is not running')));
    if (this.calls.size >= this.launch.maxInFlight)
      return Promise.reject(new PrologWorkerError(this.id, `Prolog worker ${this.id} is busy`));
    if (cancel?.aborted) return Promise.reject(cancelledCall(this.id));
    const id = ++this.seq;
    return new Promise<Json>((resolve, reject) => {
      const call: InFlight = {
        id,
        resolve,
        reject,
        handlers,
        timeoutMs,
        abandoned: false,
        detach: () => stopListening?.(),
      };
      const stopListening = cancel?.onAbort(() => this.calls.abandon(call));
      this.calls.add(call);
      this.broadcasts.catchUp((message) => this.channel.write(message));
      this.channel.write({ op: 'call', id, method, params });
    });
  }

  /**
   * True when the worker takes another call: it runs and its calls leave room behind them (see
   * `CallTable.roomBehind`).
   */
  get accepting(): boolean {
    return this.alive && this.calls.roomBehind;
  }

  /** Kills the process at once (SIGKILL); whatever it still writes is ignored. */
  kill(): void {
    this.alive = false;
    this.killed = true;
    this.swipl.signal('SIGKILL');
  }

  /** Ends the channel and sends SIGTERM, then SIGKILL if the process is still there after `graceMs`. */
  async close(graceMs: number): Promise<void> {
    this.alive = false;
    if (this.exited) return;
    this.channel.end();
    await this.swipl.stop(graceMs);
  }

  private onLine(text: string): void {
    const parsed = parseWorkerMessage(text, this.launch.maxMessageDepth);
    const answer = parsed.ok ? parsed.message : undefined;
    if (answer?.type === 'result' || answer?.type === 'failure') this.loss.answered(answer.id);
    if (this.killed) return; // a killed worker's last answers only tell which calls it started
    if (!parsed.ok) return this.protocolFault(parsed.problem);
    this.onMessage(parsed.message);
  }

  private onMessage(message: WorkerMessage): void {
    if (message.type === 'ready' || message.type === 'load_error') {
      if (!this.startup.waiting) return this.protocolFault(`an unexpected ${message.type} message`);
      return this.startup.answered(message);
    }
    if (message.type === 'changed') return this.launch.changed?.(message, this.id);
    if (message.type === 'broadcast') return this.broadcasts.record(message.goal);
    if (message.type === 'emit') return this.launch.emitted?.(message, this.id);
    if (message.type === 'log' && message.id === undefined)
      return logOutsideCall(this.launch, this.id, message);
    if (!this.calls.deliver(message))
      this.protocolFault(`a message for an unknown call ${message.id}`);
  }

  /** Writes the calls to interrupt, then signals: the list must be there when the worker looks. */
  private interrupt(abandoned: number[]): void {
    if (this.exited) return;
    this.interrupts.write(abandoned);
    this.channel.flush(); // the call must be in the pipe before the worker looks for it
    this.swipl.signal('SIGINT');
  }

  /**
   * Fails the running call with `error` and kills the worker; the calls written behind it wait
   * until its channel is read to the end, to learn which it started (see `LossRecord`).
   */
  private abort(error: Error): void {
    this.kill();
    this.calls.failRunning(error);
    this.loss.blamedRunning();
  }

  private protocolFault(what: string): void {
    const error = new PrologProtocolError(
      this.id,
      `Prolog worker ${this.id} wrote ${what} on the protocol channel; it was replaced`,
    );
    this.report('error', error.message);
    this.startup.fail(error);
    this.loss.unknowable();
    this.abort(error);
  }

  private report(level: 'warning' | 'error', message: string): void {
    this.launch.log({ level, workerId: this.id, source: 'bridge', message });
  }

  private onExit(how: string): void {
    if (this.exited) return;
    this.exited = true;
    this.alive = false;
    this.launch.cleanup?.(this.id);
    const tail = this.swipl.outputTail.length > 0 ? `: ${this.swipl.outputTail.join(' | ')}` : '';
    if (this.startup.waiting) {
      this.startup.fail(
        new PrologWorkerError(this.id, `Prolog worker ${this.id} ${how} while starting${tail}`),
      );
    }
    this.interrupts.remove();
    this.loss.gone(
      new PrologWorkerError(
        this.id,
        `Prolog worker ${this.id} ${how} during the call; it was replaced`,
      ),
    );
    this.onGone?.(how);
  }
}

/**
 * How many answers a worker may hold back for the ones after them: half the calls it may be
 * given ahead, the half the pool refills at once (see `WorkerPool`). The other half keeps the
 * worker busy while Node reads the answers and writes the next calls.
 */
export function answerBatch(maxInFlight: number): number {
  return Math.max(1, Math.floor(maxInFlight / 2));
}
