import { PrologWorkerError } from './errors.js';
import type { InFlight } from './workerCall.js';

/**
 * A call its worker never started: the worker was lost (another call halted or wedged it) with
 * this call still written behind the running one. Nothing of it ran, so the pool may give it to
 * another worker; this is what its caller sees once the pool gives up requeueing it.
 */
export class PrologNotRunError extends PrologWorkerError {
  override readonly code: string = 'bridge.not-run';
  constructor(workerId: number, cause: Error) {
    super(workerId, `Prolog worker ${workerId} was lost before the call ran (${cause.message})`);
  }
}

/**
 * The failure of a call written behind the running one when what its lost worker ran is unknown
 * (it broke the protocol, or its channel stayed open after it exited): it may have run, so it is
 * not given to another worker.
 */
export function lostUnknown(workerId: number, cause: Error): PrologWorkerError {
  return new PrologWorkerError(
    workerId,
    `Prolog worker ${workerId} was lost with the call written to it, maybe run (${cause.message})`,
  );
}

/**
 * How a call a lost worker held ends. The worker runs its calls in the order they were written,
 * and writes (and flushes) a call's answer before it reads the next: so once its channel has been
 * read to the end, the call after the last one answered is the only one that may have run (it
 * fails with `cause`), and every later one was never started. `lastAnswered` is undefined when
 * that is not known: then the first call still held takes the blame and the rest may have run.
 */
export function lossOf(
  workerId: number,
  call: InFlight,
  lastAnswered: number | undefined,
  blameFirst: boolean,
  cause: Error,
): Error {
  if (lastAnswered === undefined) return blameFirst ? cause : lostUnknown(workerId, cause);
  return call.id > lastAnswered + 1 ? new PrologNotRunError(workerId, cause) : cause;
}

/** How long a worker's channel may stay open after its process exited (a child holds it). */
const DRAIN_AFTER_EXIT_MS = 1000;

/**
 * What a worker is known to have run, kept so that when it is lost the calls it held can be
 * sorted (see {@link lossOf}): the last call it answered, read from its channel even after it
 * was killed, and whether that channel was read to its end.
 */
export class LossRecord {
  private lastAnswered = 0;
  /** What the worker ran is unknown: it broke the protocol, or its channel outlived it. */
  private blind = false;
  /** A call was failed for the loss already: the others are not to blame. */
  private blamed = false;
  private drained = false;
  private cause: Error | undefined;

  /** `endHeld` ends every call the worker still holds, each with the failure it is given. */
  constructor(
    private readonly workerId: number,
    private readonly endHeld: (failureOf: (call: InFlight) => Error) => void,
  ) {}

  /** The worker answered call `id`: the calls before it, and it, are done. */
  answered(id: number): void {
    this.lastAnswered = Math.max(this.lastAnswered, id);
  }

  /** What the worker wrote can no longer be read: its calls may have run. */
  unknowable(): void {
    this.blind = true;
  }

  /** The running call was failed for the loss already (a deadline, a protocol fault). */
  blamedRunning(): void {
    this.blamed = true;
  }

  /** The channel closed: every answer the worker wrote has been read. */
  drainedChannel(): void {
    this.drained = true;
    if (this.cause) this.sort();
  }

  /** The process is gone: its calls are sorted once the channel is read, or after a while. */
  gone(cause: Error): void {
    this.cause = cause;
    if (this.drained) return this.sort();
    setTimeout(() => {
      if (this.drained) return;
      this.blind = true;
      this.sort();
    }, DRAIN_AFTER_EXIT_MS).unref();
  }

  private sort(): void {
    const lastAnswered = this.blind ? undefined : this.lastAnswered;
    this.endHeld((call) => {
      const error = lossOf(this.workerId, call, lastAnswered, !this.blamed, this.cause!);
      this.blamed = true;
      return error;
    });
  }
}
