/** Stops watching a request's signal (its response is settled: the runtime owns it now). */
export interface AbortWatch {
  stop(): void;
}

/** Watches not started yet, started together at the start of the next turn. */
const pending = new Set<SignalWatch>();
let scheduled = false;
const nextTurn = (globalThis as { setImmediate?: (run: () => void) => unknown }).setImmediate;

/**
 * Calls `onAbort` when the request's signal aborts (the client went away). The signal is read and
 * listened to only for a response still open at the next turn: a small answer settles in the turn
 * its body was read, and on Node's fetch bridges reading `signal` builds an `AbortController` for
 * the request, a listener on it a map. A signal read late still tells an earlier abort (the bridge
 * and the runtimes keep it), so nothing is missed. `eager` (or a runtime without `setImmediate`)
 * listens at once: a Worker may stop timers another request scheduled.
 */
export function watchAbort(
  request: { readonly signal?: AbortSignal },
  onAbort: () => void,
  eager: boolean,
): AbortWatch {
  const watch = new SignalWatch(request, onAbort);
  if (eager || nextTurn === undefined) {
    watch.start();
    return watch;
  }
  pending.add(watch);
  if (!scheduled) {
    scheduled = true;
    nextTurn(startPending);
  }
  return watch;
}

function startPending(): void {
  scheduled = false;
  const watches = [...pending];
  pending.clear();
  for (const watch of watches) watch.start();
}

/** One request's watch; the listener object itself, so no closure per request. */
class SignalWatch implements AbortWatch {
  private signal: AbortSignal | undefined;
  private stopped = false;

  constructor(
    private readonly request: { readonly signal?: AbortSignal },
    private readonly onAbort: () => void,
  ) {}

  start(): void {
    if (this.stopped) return;
    const signal = this.request.signal;
    if (!signal) return;
    if (signal.aborted) return this.fire();
    this.signal = signal;
    signal.addEventListener('abort', this, { once: true });
  }

  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    pending.delete(this);
    this.signal?.removeEventListener('abort', this);
    this.signal = undefined;
  }

  /** The `abort` event (this object is its listener). */
  handleEvent(): void {
    this.fire();
  }

  private fire(): void {
    if (this.stopped) return;
    this.stop();
    this.onAbort();
  }
}
