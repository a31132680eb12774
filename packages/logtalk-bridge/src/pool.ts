import {
  PrologBusyError,
  PrologCancelledError,
  PrologTimeoutError,
  PrologWorkerError,
} from './errors.js';
import { PrologWorker } from './worker.js';
import type { WorkerLaunch } from './workerContract.js';

/**
 * A fixed number of workers, each running one call at a time. A worker that dies, is killed at a
 * deadline or breaks the protocol is replaced; calls wait in order for a free worker, at most
 * `maxQueue` of them (one more is refused at once with a `PrologBusyError`). A worker finishing a
 * call its caller gave up comes back once it is done.
 */
export class WorkerPool {
  private readonly workers = new Set<PrologWorker>();
  private readonly idle: PrologWorker[] = [];
  private readonly waiting: ((worker: PrologWorker) => void)[] = [];
  private nextId = 1;
  private closing = false;

  constructor(
    private readonly size: number,
    private readonly launch: WorkerLaunch,
    private readonly graceMs: number,
    private readonly maxQueue: number,
  ) {}

  /** Starts every worker; the first failure (a load error, say) stops the others and is thrown. */
  async start(): Promise<void> {
    const started = await Promise.allSettled(Array.from({ length: this.size }, () => this.spawn()));
    const failed = started.find((outcome) => outcome.status === 'rejected');
    if (failed) {
      await this.close();
      throw failed.reason;
    }
  }

  /**
   * Runs `work` on a free worker, waiting at most `timeoutMs` for one to be free; a caller whose
   * `signal` aborts while it waits leaves the queue with a `PrologCancelledError`.
   */
  async run<T>(
    timeoutMs: number,
    work: (worker: PrologWorker) => Promise<T>,
    signal?: AbortSignal,
  ): Promise<T> {
    const worker = await this.acquire(timeoutMs, signal);
    try {
      return await work(worker);
    } finally {
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
    await Promise.all([...this.workers].map((worker) => worker.close(this.graceMs)));
    this.workers.clear();
    this.idle.length = 0;
  }

  private async spawn(): Promise<PrologWorker> {
    const worker = await PrologWorker.start(this.nextId++, this.launch);
    if (this.closing) {
      await worker.close(this.graceMs);
      throw new PrologWorkerError(worker.id, 'the pool is closing');
    }
    worker.onGone = () => this.replace(worker);
    worker.onFree = () => this.release(worker);
    this.workers.add(worker);
    this.release(worker);
    return worker;
  }

  private acquire(timeoutMs: number, signal?: AbortSignal): Promise<PrologWorker> {
    if (signal?.aborted) return Promise.reject(cancelledInQueue());
    const free = this.idle.pop();
    if (free) return Promise.resolve(free);
    if (this.closing)
      return Promise.reject(new PrologWorkerError(0, 'the Prolog provider is closed'));
    if (this.waiting.length >= this.maxQueue)
      return Promise.reject(new PrologBusyError(this.maxQueue));
    return new Promise<PrologWorker>((resolve, reject) => {
      const leave = (error: Error): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        const at = this.waiting.indexOf(take);
        if (at !== -1) this.waiting.splice(at, 1);
        reject(error);
      };
      const onAbort = (): void => leave(cancelledInQueue());
      const take = (worker: PrologWorker): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        resolve(worker);
      };
      const timer = setTimeout(
        () => leave(new PrologTimeoutError(0, `no Prolog worker was free within ${timeoutMs} ms`)),
        timeoutMs,
      );
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(take);
    });
  }

  /** A worker is back: it goes to the first waiting call, else to the idle list. */
  private release(worker: PrologWorker): void {
    if (!worker.alive || worker.busy) return; // a busy one comes back through onFree
    const next = this.waiting.shift();
    if (next) next(worker);
    else if (!this.idle.includes(worker)) this.idle.push(worker);
  }

  private replace(gone: PrologWorker): void {
    this.workers.delete(gone);
    const at = this.idle.indexOf(gone);
    if (at !== -1) this.idle.splice(at, 1);
    if (this.closing) return;
    this.launch.log({
      level: 'warning',
      workerId: gone.id,
      source: 'bridge',
      message: `worker ${gone.id} is gone; starting a replacement`,
    });
    this.spawn().catch((error: unknown) => {
      this.launch.log({
        level: 'error',
        source: 'bridge',
        message: `could not replace worker ${gone.id}: ${String(error)}`,
      });
      if (!this.closing) setTimeout(() => this.replace(gone), 1000).unref();
    });
  }
}

function cancelledInQueue(): PrologCancelledError {
  return new PrologCancelledError(0, 'the call was cancelled before a worker took it');
}
