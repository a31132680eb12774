import type { Cancellation } from '@rondo/core';
import {
  PrologBusyError,
  PrologCancelledError,
  PrologTimeoutError,
  PrologUnavailableError,
  PrologWorkerError,
} from './errors.js';
import { PrologWorker } from './worker.js';
import { PrologNotRunError } from './workerLoss.js';
import type { WorkerLaunch } from './workerContract.js';

/** How a {@link WorkerPool} is sized and how it restarts workers. */
export interface PoolOptions {
  size: number;
  /** Grace period between SIGTERM and SIGKILL on close. */
  graceMs: number;
  /** How many calls may wait for a free worker. */
  maxQueue: number;
  /** The first delay before restarting a worker that died before it answered a call. */
  restartDelayMs: number;
  /** The longest such delay: each further death in a row doubles it up to this. */
  maxRestartDelayMs: number;
  /** The id of the first worker (default 1): pools that run at once (a reload) need distinct ids. */
  firstId?: number;
}

/**
 * How many times a call its worker never started (the worker was lost to another call) is given
 * to another worker before it fails with that loss.
 */
export const MAX_REQUEUES = 3;

/**
 * A fixed number of workers, each running one call at a time with up to `maxInFlight` (the
 * launch's) written to it ahead; a call goes to the worker holding the fewest. A worker that
 * dies, is killed at a deadline or breaks the protocol is replaced, failing the calls it held;
 * calls wait in order for room on a worker, at most `maxQueue` of them (one more is refused at
 * once with a `PrologBusyError`). A worker with a call its caller gave up takes no more calls
 * until that one is done.
 *
 * A worker that answered a call is replaced at once. One that died before answering any (or whose
 * start failed) counts as a failure in a row for its slot: the restart waits `restartDelayMs`,
 * doubling with each further failure up to `maxRestartDelayMs`. While no worker runs and the last
 * start failed, calls fail at once with a `PrologUnavailableError`.
 */
export class WorkerPool {
  private readonly workers = new Set<PrologWorker>();
  /** How many calls each worker was given whose `work` has not settled yet. */
  private readonly held = new Map<PrologWorker, number>();
  private readonly waiting: Waiter[] = [];
  /** The workers that answered at least one call. */
  private readonly proven = new WeakSet<PrologWorker>();
  /** Failures in a row of the slot each worker fills. */
  private readonly streaks = new WeakMap<PrologWorker, number>();
  private readonly restarts = new Set<NodeJS.Timeout>();
  private unavailable: PrologUnavailableError | undefined;
  private nextId: number;
  private closing = false;

  constructor(
    private readonly launch: WorkerLaunch,
    private readonly options: PoolOptions,
  ) {
    this.nextId = options.firstId ?? 1;
  }

  /** Starts every worker; the first failure (a load error, say) stops the others and is thrown. */
  async start(): Promise<void> {
    const started = await Promise.allSettled(
      Array.from({ length: this.options.size }, () => this.spawn(0)),
    );
    const failed = started.find((outcome) => outcome.status === 'rejected');
    if (failed) {
      await this.close();
      throw failed.reason;
    }
  }

  /**
   * Runs `work` on a free worker, waiting at most `timeoutMs` for one to be free; a caller who
   * gives up (`cancel`) while it waits leaves the queue with a `PrologCancelledError`. A call its
   * worker was lost before starting (a `PrologNotRunError`) goes back to the head of the queue,
   * up to {@link MAX_REQUEUES} times: only a call that may have run fails with its worker.
   */
  async run<T>(
    timeoutMs: number,
    work: (worker: PrologWorker) => Promise<T>,
    cancel?: Cancellation,
  ): Promise<T> {
    for (let requeues = 0; ; requeues++) {
      try {
        return await this.runOnce(timeoutMs, work, cancel, requeues > 0);
      } catch (error) {
        if (!(error instanceof PrologNotRunError) || requeues >= MAX_REQUEUES) throw error;
      }
    }
  }

  private async runOnce<T>(
    timeoutMs: number,
    work: (worker: PrologWorker) => Promise<T>,
    cancel: Cancellation | undefined,
    requeued: boolean,
  ): Promise<T> {
    const worker = await this.acquire(timeoutMs, cancel, requeued);
    try {
      return await work(worker);
    } finally {
      if (worker.alive) this.proven.add(worker);
      const left = (this.held.get(worker) ?? 1) - 1;
      if (left > 0) this.held.set(worker, left);
      else this.held.delete(worker);
      this.release(worker);
    }
  }

  /** The workers now running (for tests and diagnostics). */
  get running(): readonly PrologWorker[] {
    return [...this.workers];
  }

  /** Stops every worker: SIGTERM, then SIGKILL after the grace period. */
  async close(): Promise<void> {
    this.closing = true;
    for (const timer of this.restarts) clearTimeout(timer);
    this.restarts.clear();
    await Promise.all([...this.workers].map((worker) => worker.close(this.options.graceMs)));
    this.workers.clear();
    this.held.clear();
  }

  /** Starts a worker for a slot that has failed `streak` times in a row. */
  private async spawn(streak: number): Promise<PrologWorker> {
    const worker = await PrologWorker.start(this.nextId++, this.launch);
    if (this.closing) {
      await worker.close(this.options.graceMs);
      throw new PrologWorkerError(worker.id, 'the pool is closing');
    }
    this.unavailable = undefined;
    this.streaks.set(worker, streak);
    worker.onGone = (how) => this.replace(worker, how);
    worker.onFree = () => this.release(worker);
    this.workers.add(worker);
    this.release(worker);
    return worker;
  }

  /** A free worker; a `requeued` call waits at the head of the queue, past the `maxQueue` cap. */
  private acquire(
    timeoutMs: number,
    cancel: Cancellation | undefined,
    requeued: boolean,
  ): Promise<PrologWorker> {
    if (cancel?.aborted) return Promise.reject(cancelledInQueue());
    const free = this.leastHeld();
    if (free) return Promise.resolve(this.hold(free));
    if (this.closing)
      return Promise.reject(new PrologWorkerError(0, 'the Prolog provider is closed'));
    if (this.unavailable && this.workers.size === 0) return Promise.reject(this.unavailable);
    if (!requeued && this.waiting.length >= this.options.maxQueue)
      return Promise.reject(new PrologBusyError(this.options.maxQueue));
    return new Promise<PrologWorker>((resolve, reject) => {
      const leave = (error: Error): void => {
        clearTimeout(timer);
        stopListening?.();
        const at = this.waiting.indexOf(take);
        if (at !== -1) this.waiting.splice(at, 1);
        reject(error);
      };
      const take: Waiter = (worker: PrologWorker): void => {
        clearTimeout(timer);
        stopListening?.();
        resolve(worker);
      };
      take.fail = leave;
      const timer = setTimeout(
        () => leave(new PrologTimeoutError(0, `no Prolog worker was free within ${timeoutMs} ms`)),
        timeoutMs,
      );
      const stopListening = cancel?.onAbort(() => leave(cancelledInQueue()));
      if (requeued) this.waiting.unshift(take);
      else this.waiting.push(take);
    });
  }

  /** The worker with room that holds the fewest calls, if any has room. */
  private leastHeld(): PrologWorker | undefined {
    let best: PrologWorker | undefined;
    for (const worker of this.workers)
      if (this.hasRoom(worker) && (!best || this.heldBy(worker) < this.heldBy(best))) best = worker;
    return best;
  }

  private hasRoom(worker: PrologWorker): boolean {
    return worker.accepting && this.heldBy(worker) < this.launch.maxInFlight;
  }

  private heldBy(worker: PrologWorker): number {
    return this.held.get(worker) ?? 0;
  }

  private hold(worker: PrologWorker): PrologWorker {
    this.held.set(worker, this.heldBy(worker) + 1);
    return worker;
  }

  /**
   * A worker has room again: it goes to the waiting calls, first come first served. A worker
   * with several calls in flight is refilled once half of them are answered, so the calls it is
   * given leave in one write (each write wakes the worker: a system call and a context switch).
   * The worker sends its answers in such halves too (`answerBatch`), so it runs one half while
   * Node reads the answers of the other and writes the calls that replace them.
   */
  private release(worker: PrologWorker): void {
    if (!this.workers.has(worker) || this.heldBy(worker) > this.launch.maxInFlight / 2) return;
    while (this.waiting.length > 0 && this.hasRoom(worker))
      this.waiting.shift()!(this.hold(worker));
  }

  /** A worker is gone: its slot restarts at once, or after a back-off if it never answered. */
  private replace(gone: PrologWorker, how: string): void {
    this.workers.delete(gone);
    this.held.delete(gone);
    if (this.closing) return;
    const streak = this.proven.has(gone) ? 0 : (this.streaks.get(gone) ?? 0) + 1;
    const delay = this.delayAfter(streak);
    this.launch.log({
      level: 'warning',
      workerId: gone.id,
      source: 'bridge',
      message: `worker ${gone.id} is gone (${how}); ${delay === 0 ? 'starting a replacement' : `starting a replacement in ${delay} ms (failure ${streak} in a row)`}`,
    });
    this.restart(streak, delay);
  }

  private restart(streak: number, delay: number): void {
    const timer = setTimeout(() => {
      this.restarts.delete(timer);
      this.spawn(streak).catch((error: unknown) => this.startFailed(streak + 1, error));
    }, delay);
    timer.unref();
    this.restarts.add(timer);
  }

  /** A start failed: retried after a back-off; with no worker left, waiting calls fail now. */
  private startFailed(streak: number, error: unknown): void {
    if (this.closing) return;
    const delay = this.delayAfter(streak);
    const reason = error instanceof Error ? error.message : String(error);
    this.launch.log({
      level: 'error',
      source: 'bridge',
      message: `could not start a replacement worker (failure ${streak} in a row): ${reason}; retrying in ${delay} ms`,
    });
    this.unavailable = new PrologUnavailableError(reason, delay);
    if (this.workers.size === 0)
      for (const waiter of this.waiting.splice(0)) waiter.fail?.(this.unavailable);
    this.restart(streak, delay);
  }

  /** 0 after a worker that answered; then `restartDelayMs`, doubling up to the cap. */
  private delayAfter(streak: number): number {
    if (streak === 0) return 0;
    const { restartDelayMs, maxRestartDelayMs } = this.options;
    return Math.min(restartDelayMs * 2 ** Math.min(streak - 1, 30), maxRestartDelayMs);
  }
}

/** A call waiting for a worker; `fail` makes it leave the queue with an error. */
interface Waiter {
  (worker: PrologWorker): void;
  fail?: (error: Error) => void;
}

function cancelledInQueue(): PrologCancelledError {
  return new PrologCancelledError(0, 'the call was cancelled before a worker took it');
}
