import type { HandlerContext } from '@rondo/core';

/**
 * How a worker call hears that its caller gave up: it returns the function that stops listening,
 * or `undefined` when the caller gave up already (the listener is then never called).
 */
export type CancelListener = (listener: () => void) => (() => void) | undefined;

/**
 * The cancellation of a handler's call: the context's `onAbort` when it has one, which creates no
 * `AbortSignal` (one per call costs more than a small call), else its signal.
 */
export function cancellationOf(ctx: HandlerContext): CancelListener {
  if (ctx.onAbort) return (listener) => ctx.onAbort!(listener);
  return signalCancellation(ctx.signal);
}

/** A cancellation heard through an `AbortSignal`. */
export function signalCancellation(signal: AbortSignal): CancelListener {
  return (listener) => {
    if (signal.aborted) return undefined;
    signal.addEventListener('abort', listener, { once: true });
    return () => signal.removeEventListener('abort', listener);
  };
}

/** True when the caller gave up already (listening costs no signal, and stops at once). */
export function givenUp(cancel: CancelListener | undefined): boolean {
  if (!cancel) return false;
  const stop = cancel(ignore);
  stop?.();
  return stop === undefined;
}

function ignore(): void {}
