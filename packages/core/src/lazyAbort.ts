import type { Cancellation } from './contracts/cancellation.js';

/**
 * The {@link Cancellation} a transport or the pipeline owns and aborts: an abort controller that
 * creates its `AbortSignal` only when someone reads it. Aborting before the signal exists is
 * remembered: the signal is then created already aborted, with the same reason.
 */
export class LazyAbortController implements Cancellation {
  private controller: AbortController | undefined;
  private abortedWith: { reason: unknown } | undefined;
  private listeners: ((reason: unknown) => void)[] | undefined;

  get aborted(): boolean {
    return this.abortedWith !== undefined;
  }

  get reason(): unknown {
    return this.abortedWith?.reason;
  }

  get signal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController();
      if (this.abortedWith !== undefined) this.controller.abort(this.abortedWith.reason);
    }
    return this.controller.signal;
  }

  onAbort(listener: (reason: unknown) => void): () => void {
    if (this.abortedWith !== undefined) return doNothing;
    (this.listeners ??= []).push(listener);
    return () => {
      const index = this.listeners?.indexOf(listener) ?? -1;
      if (index >= 0) this.listeners!.splice(index, 1);
    };
  }

  /**
   * Aborts (once): the signal fires now if it exists, or is born aborted when first read. Without
   * a reason the reason is an `AbortError`, as `AbortController.abort()` gives.
   */
  abort(reason: unknown = new DOMException('This operation was aborted', 'AbortError')): void {
    if (this.abortedWith !== undefined) return;
    this.abortedWith = { reason };
    this.controller?.abort(reason);
    const listeners = this.listeners;
    this.listeners = undefined;
    if (listeners) for (const listener of listeners) listener(reason);
  }
}

function doNothing(): void {}
