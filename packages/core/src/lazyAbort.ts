/**
 * An abort controller that creates its `AbortSignal` only when someone reads it. Creating a signal
 * costs more than the rest of a small request, and most requests end before anyone listens, so
 * transports and adapters keep one of these per exchange or request instead of an
 * `AbortController`. Aborting before the signal exists is remembered: the signal is then created
 * already aborted, with the same reason. Code that only needs to hear the abort (a gateway passing
 * a call through) listens with {@link onAbort}, which creates no signal either.
 */
export class LazyAbortController {
  private controller: AbortController | undefined;
  private abortedWith: { reason: unknown } | undefined;
  private listeners: ((reason: unknown) => void)[] | undefined;

  /** True once {@link abort} was called, without creating the signal. */
  get aborted(): boolean {
    return this.abortedWith !== undefined;
  }

  /** The reason {@link abort} was given; `undefined` before. */
  get reason(): unknown {
    return this.abortedWith?.reason;
  }

  /** The signal, created on first read. */
  get signal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController();
      if (this.abortedWith !== undefined) this.controller.abort(this.abortedWith.reason);
    }
    return this.controller.signal;
  }

  /**
   * Calls `listener` once with the reason when this aborts (never when it already has: check
   * {@link aborted} first); returns the function that stops listening.
   */
  onAbort(listener: (reason: unknown) => void): () => void {
    (this.listeners ??= []).push(listener);
    return () => {
      const index = this.listeners?.indexOf(listener) ?? -1;
      if (index >= 0) this.listeners!.splice(index, 1);
    };
  }

  /** Aborts (once): the signal fires now if it exists, or is born aborted when first read. */
  abort(reason?: unknown): void {
    if (this.abortedWith !== undefined) return;
    this.abortedWith = { reason };
    this.controller?.abort(reason);
    const listeners = this.listeners;
    this.listeners = undefined;
    if (listeners) for (const listener of listeners) listener(reason);
  }
}
