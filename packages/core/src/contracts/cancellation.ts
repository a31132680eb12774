/**
 * How work hears that whoever waits for it gave up: a client cancelled, a connection closed, a
 * task was cancelled. Every exchange and every handler context carries one, and everything that
 * waits on a call (a gateway's gate, a Prolog worker, an upstream request) takes one, so there is
 * one way to hear an abort.
 *
 * It behaves as an `AbortSignal` does, without the cost of one: an `AbortSignal` per call costs
 * more than the rest of a small call, and most calls end before anyone listens, so
 * implementations create {@link signal} only when it is read and hear aborts through
 * {@link onAbort} without it.
 */
export interface Cancellation {
  /** True once aborted. */
  readonly aborted: boolean;
  /** Why it was aborted (the first reason given); `undefined` before. */
  readonly reason: unknown;
  /**
   * Calls `listener` once, with the reason, when this aborts. Like an `AbortSignal`'s listener, one
   * added after the abort is never called: check {@link aborted} first when it matters. Returns the
   * function that stops listening (which does nothing once the listener ran).
   */
  onAbort(listener: (reason: unknown) => void): () => void;
  /**
   * An `AbortSignal` that aborts with this (already aborted, with the same reason, when read
   * after), for APIs that take one (`fetch`, timers). Created on first read.
   */
  readonly signal: AbortSignal;
}
