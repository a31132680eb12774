import type { Json, JsonObject } from '@rondo/protocol';
import { callFailure, PrologTimeoutError } from './errors.js';
import type { WorkerMessage } from './messages.js';
import {
  cancelledCall,
  clientQuestion,
  deliverNews,
  PIPELINE_BEHIND_MS,
  type InFlight,
} from './workerCall.js';
import { refusal, type ClientQuestion } from './workerContract.js';

/** What a {@link CallTable} needs of the worker whose calls it keeps. */
export interface CallTableHost {
  readonly id: number;
  /** How long a call its caller gave up may still run (the launch's `cancelGraceMs`). */
  readonly cancelGraceMs: number;
  /** How many calls may be written to the worker at once (the launch's `maxInFlight`). */
  readonly maxInFlight: number;
  /** True while the process runs and takes calls. */
  alive(): boolean;
  /** Queues one message on the protocol channel. */
  write(message: JsonObject): void;
  /** Interrupts the listed calls (the one running, or each when its turn comes). */
  interrupt(abandoned: number[]): void;
  /** The running call passed its deadline: the worker is replaced, failing it with `error`. */
  timedOut(error: Error): void;
  /** A cancelled call ran past its grace period: the worker is killed. */
  overstayed(): void;
  /** A warning for the server log. */
  warn(message: string): void;
  /** The worker has room for another call again. */
  free(): void;
}

/**
 * The calls written to one worker and not answered yet, in the order it runs them: the first
 * is the running one, and only it has a clock (its deadline, or the grace period once its caller
 * gave up; the deadline stops while the client is asked). The worker's process life (spawn,
 * channel, exit, loss) is `PrologWorker`'s; this table owns what happens to each call.
 */
export class CallTable {
  private readonly calls: InFlight[] = [];
  /** When the first of `calls` became the one running (`performance.now()`). */
  private runningSince = 0;

  constructor(private readonly host: CallTableHost) {}

  /** How many calls the worker holds. */
  get size(): number {
    return this.calls.length;
  }

  /**
   * True when another call may be written behind these: fewer than `maxInFlight`, the running
   * call is not a long one (past {@link PIPELINE_BEHIND_MS}), and none was given up or waits on
   * the client. A call written behind a long one would wait for it, where in the pool's queue it
   * goes to the first worker with room.
   */
  get roomBehind(): boolean {
    if (this.calls.length === 0) return true;
    return (
      this.calls.length < this.host.maxInFlight &&
      performance.now() - this.runningSince < PIPELINE_BEHIND_MS &&
      !this.calls.some((call) => call.abandoned || call.asking !== undefined)
    );
  }

  /** Adds a call just written to the worker; the first one starts its clock at once. */
  add(call: InFlight): void {
    this.calls.push(call);
    if (this.calls.length === 1) this.startRunning(call);
  }

  /**
   * A message for a call; false when it names none the worker should be speaking for (only the
   * running call speaks: the worker runs its calls in order).
   */
  deliver(message: WorkerMessage & { id?: number }): boolean {
    const call = this.calls[0];
    if (!call || call.id !== message.id) return false;
    if (call.abandoned) this.onAbandonedMessage(call, message);
    else if (message.type === 'result') this.settle(() => call.resolve(message.value));
    else if (message.type === 'failure') this.settle(() => call.reject(callFailure(message)));
    else {
      const question = clientQuestion(call.handlers, message);
      if (question) void this.answerClient(call, question.what, question.ask);
      else deliverNews(call.handlers, message);
    }
    return true;
  }

  /**
   * The caller gave up: it gets its cancellation now, while the worker is left to finish. A
   * question it is waiting on is answered with a refusal, so the Prolog code unwinds.
   */
  abandon(call: InFlight): void {
    if (!this.calls.includes(call) || call.abandoned) return;
    call.abandoned = true;
    clearTimeout(call.timer);
    call.detach();
    call.reject(cancelledCall(this.host.id));
    // A goal waiting on the client unwinds on the refusal; any other is interrupted (SIGINT), or
    // skipped if not started: the interrupt list names it, so a call running beside it goes on.
    if (call.asking) this.refuse(call, call.asking);
    else this.host.interrupt(this.calls.filter((c) => c.abandoned).map((c) => c.id));
    if (this.calls[0] === call) this.armGrace(call);
  }

  /** Fails the running call with `error` (the worker is being replaced). */
  failRunning(error: Error): void {
    const running = this.calls[0];
    if (running) this.settle(() => running.reject(error));
  }

  /** Ends every call held (the worker is lost), each with the failure `failureOf` gives it. */
  endAll(failureOf: (call: InFlight) => Error): void {
    while (this.calls.length > 0) {
      const call = this.calls[0]!;
      const error = failureOf(call);
      this.settle(() => call.reject(error));
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
      this.host.warn(`${what} request failed: ${reason}`);
      value = refusal(what, reason);
    }
    if (this.calls[0] !== call || call.abandoned) return; // abandon() has answered already
    call.asking = undefined;
    this.armDeadline(call);
    this.host.write({ op: 'answer', id: call.id, value });
    this.host.free();
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
    this.host.write({ op: 'answer', id: call.id, value: refusal(what, 'the call was cancelled') });
  }

  /** The call is the first now: its deadline runs, or its grace period if its caller gave up. */
  private startRunning(call: InFlight): void {
    this.runningSince = performance.now();
    if (call.abandoned) this.armGrace(call);
    else this.armDeadline(call);
  }

  private armGrace(call: InFlight): void {
    call.timer = setTimeout(() => {
      if (this.calls[0] !== call) return;
      this.host.warn(
        `worker ${this.host.id} did not finish a cancelled call within ${this.host.cancelGraceMs} ms; it is replaced`,
      );
      this.host.overstayed();
    }, this.host.cancelGraceMs);
  }

  private armDeadline(call: InFlight): void {
    clearTimeout(call.timer);
    call.timer = setTimeout(
      () =>
        this.host.timedOut(
          new PrologTimeoutError(
            this.host.id,
            `the call ran past its deadline of ${call.timeoutMs} ms; worker ${this.host.id} was replaced`,
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
    const alive = this.host.alive();
    const next = this.calls[0];
    if (next && alive) this.startRunning(next);
    if (alive) this.host.free();
  }
}
