import { LazyAbortController } from './lazyAbort.js';
import type { Cancellation } from './contracts/cancellation.js';

/**
 * A {@link Cancellation} of its own that also aborts, with the same reason, when the one it is
 * linked to does: a request's cancellation (aborted by `notifications/cancelled`, or with the
 * exchange when the peer goes away), a gateway's passed-through call. It listens to the one it
 * follows only from its own first listener or signal, so a call nobody listens to costs its
 * exchange no listener; {@link unlink} stops following (the call was answered). One object: it is
 * the controller of its own abort.
 */
export class LinkedCancellation extends LazyAbortController {
  private following = false;
  private unfollow: (() => void) | undefined;
  private unlinked = false;

  constructor(private readonly followed: Cancellation) {
    super();
  }

  override get aborted(): boolean {
    this.catchUp();
    return super.aborted;
  }

  override get reason(): unknown {
    this.catchUp();
    return super.reason;
  }

  override get signal(): AbortSignal {
    this.follow();
    return super.signal;
  }

  override onAbort(listener: (reason: unknown) => void): () => void {
    this.follow();
    return super.onAbort(listener);
  }

  /** Stops following: from now on only {@link abort} aborts it. */
  unlink(): void {
    this.unlinked = true;
    this.unfollow?.();
    this.unfollow = undefined;
  }

  /** Takes an abort of the followed one that happened while nobody listened here. */
  private catchUp(): void {
    if (!this.following && !this.unlinked && this.followed.aborted)
      this.abort(this.followed.reason);
  }

  private follow(): void {
    if (this.following || this.unlinked) return;
    this.catchUp();
    this.following = true;
    if (super.aborted) return;
    this.unfollow = this.followed.onAbort((reason) => this.abort(reason));
  }
}
