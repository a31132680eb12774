/** A timer handle of any runtime: an object on Node and Bun, a number on Deno and Workers. */
export type TimerHandle = ReturnType<typeof setTimeout>;

/** Lets the process exit while `timer` is pending, where the runtime has that notion (Node, Bun). */
export function unrefTimer(timer: TimerHandle): TimerHandle {
  (timer as { unref?: () => void }).unref?.();
  return timer;
}

/**
 * A deadline that moves with activity: `touch` records the time (no timer work on the hot path),
 * and when the timer fires early it sleeps again for what is left. `refresh` of node's timers
 * would do the same, but only Node and Bun have it.
 */
export class IdleDeadline {
  private timer: TimerHandle | undefined;
  private lastUsed = Date.now();

  constructor(
    private readonly timeoutMs: number,
    private readonly expired: () => void,
  ) {
    this.schedule(timeoutMs);
  }

  /** Postpones the deadline by the full timeout from now. */
  touch(): void {
    this.lastUsed = Date.now();
  }

  /** Starts a new full timeout from now (the expiry callback found the owner busy). */
  restart(): void {
    this.touch();
    this.schedule(this.timeoutMs);
  }

  /** Stops the timer for good. */
  cancel(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private schedule(delayMs: number): void {
    this.timer = unrefTimer(setTimeout(() => this.fire(), delayMs));
  }

  private fire(): void {
    const left = this.lastUsed + this.timeoutMs - Date.now();
    if (left > 0) this.schedule(left);
    else this.expired();
  }
}
