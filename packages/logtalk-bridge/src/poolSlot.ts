import type { Cancellation } from '@rondo/core';
import type { WorkerPool } from './pool.js';
import type { PrologWorker } from './worker.js';

/**
 * The pool calls go to, replaceable while calls run: a reload puts a new pool in the slot, and
 * the old one is closed once the calls it had taken are done, so they finish on the old code.
 */
export class PoolSlot {
  private readonly inFlight = new Map<WorkerPool, number>();
  private readonly drained = new Map<WorkerPool, () => void>();

  constructor(private pool: WorkerPool) {}

  /** The pool new calls go to. */
  get current(): WorkerPool {
    return this.pool;
  }

  /** Runs `work` on the current pool (see `WorkerPool.run`), counted until it settles. */
  async run<T>(
    timeoutMs: number,
    work: (worker: PrologWorker) => Promise<T>,
    cancel?: Cancellation,
  ): Promise<T> {
    const pool = this.pool;
    this.inFlight.set(pool, (this.inFlight.get(pool) ?? 0) + 1);
    try {
      return await pool.run(timeoutMs, work, cancel);
    } finally {
      const left = this.inFlight.get(pool)! - 1;
      if (left > 0) this.inFlight.set(pool, left);
      else {
        this.inFlight.delete(pool);
        this.drained.get(pool)?.();
      }
    }
  }

  /** Makes `next` the current pool; resolves once the previous one finished its calls and closed. */
  async replace(next: WorkerPool): Promise<void> {
    const previous = this.pool;
    this.pool = next;
    if (this.inFlight.has(previous))
      await new Promise<void>((resolve) => this.drained.set(previous, resolve));
    this.drained.delete(previous);
    await previous.close();
  }
}
