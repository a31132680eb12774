import type { Json, JsonObject } from '@rondo/protocol';
import {
  callFailure,
  PrologProtocolError,
  PrologTimeoutError,
  PrologWorkerError,
} from './errors.js';
import { readLines } from './lineReader.js';
import { parseWorkerMessage, type WorkerMessage } from './messages.js';
import { InterruptList, WorkerChannel } from './workerChannel.js';
import {
  refusal,
  type CallHandlers,
  type ClientQuestion,
  type WorkerLaunch,
} from './workerContract.js';
import {
  clientQuestion,
  deliverNews,
  cancelledCall,
  PIPELINE_BEHIND_MS,
  type InFlight,
} from './workerCall.js';
import { LossRecord, PrologNotRunError } from './workerLoss.js';
import { loadError, logOutsideCall } from './workerOutput.js';
import { WorkerProcess } from './workerProcess.js';

/**
 * One `swipl` process running the bridge shim. It runs one call at a time, but up to
 * `launch.maxInFlight` calls may be written to it ahead: it answers them in order, so the first
 * of `calls` is the one running, and only it has a deadline.
 */
export class PrologWorker {
  private readonly swipl: WorkerProcess;
  private readonly channel: WorkerChannel;
  private readonly interrupts: InterruptList;
  /** The calls written to the worker and not answered yet, in the order it runs them. */
  private readonly calls: InFlight[] = [];
  /** When the first of `calls` became the one running (`performance.now()`). */
  private runningSince = 0;
  private starting: { resolve(): void; reject(error: Error): void } | undefined;
  private seq = 0;
  private exited = false;
  private killed = false;
  /** Which calls the worker started, for when it is lost. */
  private readonly loss: LossRecord;
  /** How many goals of the broadcast log this worker has seen. */
  private replayed = 0;
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
    this.swipl = new WorkerProcess(id, launch, {
      ended: (how) => this.onExit(how),
      notInstalled: (error) => this.starting?.reject(error),
    });
    const channel = this.swipl.channel;
    this.channel = new WorkerChannel(channel, () => !this.exited);
    this.interrupts = new InterruptList(id);
    this.loss = new LossRecord(id, (failureOf) => this.endHeld(failureOf));
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
    if (!this.alive)
      return Promise.reject(new PrologNotRunError(this.id, new Error('it is not running')));
    if (!this.accepting)
      return Promise.reject(new PrologWorkerError(this.id, `Prolog worker ${this.id} is busy`));
    if (signal?.aborted) return Promise.reject(cancelledCall(this.id));
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
      this.calls.push(call);
      if (this.calls.length === 1) this.startRunning(call);
      this.replayBroadcasts();
      this.write({ op: 'call', id, method, params });
    });
  }

  /**
   * True when the worker takes another call: it runs, has fewer than `maxInFlight`, its running
   * call is not a long one (past {@link PIPELINE_BEHIND_MS}), and none of its calls was given up
   * or waits on the client. A call written behind a long one would wait for it, where in the
   * pool's queue it goes to the first worker with room.
   */
  get accepting(): boolean {
    if (!this.alive) return false;
    if (this.calls.length === 0) return true;
    return (
      this.calls.length < this.launch.maxInFlight &&
      performance.now() - this.runningSince < PIPELINE_BEHIND_MS &&
      !this.calls.some((call) => call.abandoned || call.asking !== undefined)
    );
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
      this.write({ op: 'init', ...this.launch.init(this.id), interrupts: this.interrupts.path });
    });
  }

  private write(message: JsonObject): void {
    this.channel.write(message);
  }

  /** Runs the goals other workers broadcast since this one last looked (before a call). */
  private replayBroadcasts(): void {
    const { goals } = this.launch.broadcasts;
    for (; this.replayed < goals.length; this.replayed++) {
      const { origin, goal } = goals[this.replayed]!;
      if (origin !== this.id) this.write({ op: 'replay', goal });
    }
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
    const starting = this.starting;
    if (message.type === 'ready' || message.type === 'load_error') {
      if (!starting) return this.protocolFault(`an unexpected ${message.type} message`);
      this.starting = undefined;
      return message.type === 'ready' ? starting.resolve() : starting.reject(loadError(message));
    }
    if (message.type === 'changed') return this.launch.changed?.(message, this.id);
    if (message.type === 'broadcast')
      return void this.launch.broadcasts.goals.push({ origin: this.id, goal: message.goal });
    if (message.type === 'log' && message.id === undefined)
      return logOutsideCall(this.launch, this.id, message);
    const call = this.calls[0]; // the worker runs its calls in order: only the first speaks
    if (!call || call.id !== message.id)
      return this.protocolFault(`a message for an unknown call ${message.id}`);
    if (call.abandoned) return this.onAbandonedMessage(call, message);
    if (message.type === 'result') return this.settle(() => call.resolve(message.value));
    if (message.type === 'failure') return this.settle(() => call.reject(callFailure(message)));
    const question = clientQuestion(call.handlers, message);
    if (question) void this.answerClient(call, question.what, question.ask);
    else deliverNews(call.handlers, message);
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
      this.report('warning', `${what} request failed: ${reason}`);
      value = refusal(what, reason);
    }
    if (this.calls[0] !== call || call.abandoned) return; // abandon() has answered already
    call.asking = undefined;
    this.armDeadline(call);
    this.write({ op: 'answer', id: call.id, value });
    this.onFree?.();
  }

  /**
   * The caller gave up: it gets its cancellation now, while the worker is left to finish. A
   * question it is waiting on is answered with a refusal, so the Prolog code unwinds.
   */
  private abandon(call: InFlight): void {
    if (!this.calls.includes(call) || call.abandoned) return;
    call.abandoned = true;
    clearTimeout(call.timer);
    call.detach();
    call.reject(cancelledCall(this.id));
    // A goal waiting on the client unwinds on the refusal; any other is interrupted (SIGINT), or
    // skipped if not started: the interrupt list names it, so a call running beside it goes on.
    if (call.asking) this.refuse(call, call.asking);
    else this.interrupt();
    if (this.calls[0] === call) this.armGrace(call);
  }

  private interrupt(): void {
    if (this.exited) return;
    this.interrupts.write(this.calls.filter((call) => call.abandoned).map((call) => call.id));
    this.channel.flush(); // the call must be in the pipe before the worker looks for it
    this.swipl.signal('SIGINT');
  }

  /** The call is the first now: its deadline runs, or its grace period if its caller gave up. */
  private startRunning(call: InFlight): void {
    this.runningSince = performance.now();
    if (call.abandoned) this.armGrace(call);
    else this.armDeadline(call);
  }

  private armGrace(call: InFlight): void {
    call.timer = setTimeout(() => this.overstayed(call), this.launch.cancelGraceMs);
  }

  /** A message of an abandoned call: questions are refused at once, the rest is dropped. */
  private onAbandonedMessage(call: InFlight, message: WorkerMessage): void {
    if (message.type === 'result' || message.type === 'failure')
      return this.settle(() => undefined);
    const question = clientQuestion(call.handlers, message);
    if (question) this.refuse(call, question.what); // anything else: nobody is listening any more
  }

  private refuse(call: InFlight, what: ClientQuestion): void {
    call.asking = undefined;
    this.write({ op: 'answer', id: call.id, value: refusal(what, 'the call was cancelled') });
  }

  private overstayed(call: InFlight): void {
    if (this.calls[0] !== call) return;
    const grace = this.launch.cancelGraceMs;
    this.report(
      'warning',
      `worker ${this.id} did not finish a cancelled call within ${grace} ms; it is replaced`,
    );
    this.kill();
  }

  private armDeadline(call: InFlight): void {
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

  /**
   * Ends the running call (an abandoned call's caller is gone already) and starts the clock of
   * the next: its deadline, or the grace period if its caller gave up while it waited.
   */
  private settle(finish: () => void): void {
    const call = this.calls.shift();
    if (!call) return;
    clearTimeout(call.timer);
    call.detach();
    if (!call.abandoned) finish();
    const next = this.calls[0];
    if (next && this.alive) this.startRunning(next);
    if (this.alive) this.onFree?.();
  }

  /**
   * Fails the running call with `error` and kills the worker; the calls written behind it wait
   * until its channel is read to the end, to learn which it started (see `LossRecord`).
   */
  private abort(error: Error): void {
    this.kill();
    const running = this.calls[0];
    if (running) this.settle(() => running.reject(error));
    this.loss.blamedRunning();
  }

  /** Ends every call the lost worker held: never started ones go back to the pool's queue. */
  private endHeld(failureOf: (call: InFlight) => Error): void {
    while (this.calls.length > 0) {
      const call = this.calls[0]!;
      const error = failureOf(call);
      this.settle(() => call.reject(error));
    }
  }

  private protocolFault(what: string): void {
    const error = new PrologProtocolError(
      this.id,
      `Prolog worker ${this.id} wrote ${what} on the protocol channel; it was replaced`,
    );
    this.report('error', error.message);
    if (this.starting) this.starting.reject(error);
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
    this.starting?.reject(
      new PrologWorkerError(this.id, `Prolog worker ${this.id} ${how} while starting${tail}`),
    );
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
