import type { ChangeRelay } from './changeRelay.js';
import type { ProviderDescription } from './messages.js';
import type { WorkerPool } from './pool.js';
import type { PoolSlot } from './poolSlot.js';

/** `PrologProvider.reload`, with a way to wait for a reload in progress. */
export interface Reload {
  (): Promise<void>;
  /** Resolves once no reload is in progress (whatever its outcome). */
  settled(): Promise<void>;
}

/**
 * Reloads one at a time: a new generation of workers loads the files; if that fails the old one
 * keeps serving and the error is thrown. Otherwise new calls go to the new workers at once, the
 * lists are replaced (every list announced as changed), and the old workers close once their
 * calls are done.
 */
export function reloader(
  slot: PoolSlot,
  changes: ChangeRelay,
  start: (generation: number) => Promise<{ pool: WorkerPool; description: ProviderDescription }>,
): Reload {
  let generation = 0;
  let last: Promise<void> = Promise.resolve();
  const once = async (): Promise<void> => {
    const next = await start(++generation);
    const retired = slot.replace(next.pool);
    changes.replaced(next.description);
    await retired;
  };
  const reload = (): Promise<void> => {
    const run = last.then(once, once);
    last = run.catch(() => undefined);
    return run;
  };
  reload.settled = () => last;
  return reload;
}
