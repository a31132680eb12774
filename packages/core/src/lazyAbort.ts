/**
 * An abort controller that creates its `AbortSignal` only when someone reads it. Creating a signal
 * costs more than the rest of a small request, and most requests end before anyone listens, so
 * transports and adapters keep one of these per exchange or request instead of an
 * `AbortController`. Aborting before the signal exists is remembered: the signal is then created
 * already aborted, with the same reason.
 */
export class LazyAbortController {
  private controller: AbortController | undefined;
  private abortedWith: { reason: unknown } | undefined;

  /** True once {@link abort} was called, without creating the signal. */
  get aborted(): boolean {
    return this.abortedWith !== undefined;
  }

  /** The signal, created on first read. */
  get signal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController();
      if (this.abortedWith !== undefined) this.controller.abort(this.abortedWith.reason);
    }
    return this.controller.signal;
  }

  /** Aborts (once): the signal fires now if it exists, or is born aborted when first read. */
  abort(reason?: unknown): void {
    if (this.abortedWith !== undefined) return;
    this.abortedWith = { reason };
    this.controller?.abort(reason);
  }
}
