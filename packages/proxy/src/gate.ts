import type { Cancellation } from '@rondo/core';
import { ErrorCode, McpError } from '@rondo/protocol';

/**
 * A concurrency limit for one upstream: at most `limit` calls run at once, at most `maxQueued`
 * wait for a slot; one more is refused at once with an `McpError`, so a slow upstream cannot make
 * the gateway hold an unbounded queue.
 */
export class Gate {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly label: string,
    private readonly limit: number,
    private readonly maxQueued: number,
  ) {}

  /** Calls holding a slot now. */
  get inUse(): number {
    return this.running;
  }

  /** Takes a free slot at once (true), or none when all are taken or calls wait (false). */
  tryAcquire(): boolean {
    if (this.running >= this.limit) return false;
    this.running += 1;
    return true;
  }

  /** Waits for a slot; rejects when the queue is full or `cancel` aborts. */
  async acquire(cancel: Cancellation): Promise<void> {
    if (cancel.aborted) throw abortError(cancel.reason);
    if (this.tryAcquire()) return;
    if (this.waiting.length >= this.maxQueued) {
      throw new McpError(
        ErrorCode.InternalError,
        `Upstream "${this.label}" is busy: ${this.limit} calls running and ${this.maxQueued} waiting`,
      );
    }
    await new Promise<void>((resolve, reject) => {
      const stopHearing = cancel.onAbort(() => {
        const index = this.waiting.indexOf(grant);
        if (index >= 0) this.waiting.splice(index, 1);
        reject(abortError(cancel.reason));
      });
      const grant = (): void => {
        stopHearing();
        resolve();
      };
      this.waiting.push(grant);
    });
  }

  /** Runs `work` in a slot, waited for as {@link acquire} does, and frees the slot after. */
  async run<T>(cancel: Cancellation, work: () => Promise<T>): Promise<T> {
    await this.acquire(cancel);
    try {
      return await work();
    } finally {
      this.release();
    }
  }

  /** Frees a slot: the next waiting call takes it. */
  release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.running -= 1;
  }
}

function abortError(reason: unknown): Error {
  return reason instanceof Error ? reason : new Error('The call was cancelled');
}

/**
 * One call's slot of a {@link Gate}, which the call may give up and take again: a call waiting
 * for its caller's answers (suspended between rounds) holds no slot, so callers who do not answer
 * cannot lock the upstream for the others.
 */
export class GateSlot {
  private held = false;

  constructor(private readonly gate: Gate) {}

  /** Takes a slot (waiting as {@link Gate.acquire} does) unless this call holds one. */
  async take(cancel: Cancellation): Promise<void> {
    if (this.held) return;
    await this.gate.acquire(cancel);
    this.held = true;
  }

  /** Gives the slot back, if held. */
  free(): void {
    if (!this.held) return;
    this.held = false;
    this.gate.release();
  }
}
