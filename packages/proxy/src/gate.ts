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

  /** Waits for a slot; rejects when the queue is full or `signal` aborts. */
  async acquire(signal: AbortSignal): Promise<void> {
    signal.throwIfAborted();
    if (this.running < this.limit) {
      this.running += 1;
      return;
    }
    if (this.waiting.length >= this.maxQueued) {
      throw new McpError(
        ErrorCode.InternalError,
        `Upstream "${this.label}" is busy: ${this.limit} calls running and ${this.maxQueued} waiting`,
      );
    }
    await new Promise<void>((resolve, reject) => {
      const onAbort = (): void => {
        const index = this.waiting.indexOf(grant);
        if (index >= 0) this.waiting.splice(index, 1);
        reject(signal.reason as Error);
      };
      const grant = (): void => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(grant);
    });
  }

  /** Frees a slot: the next waiting call takes it. */
  release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.running -= 1;
  }
}
