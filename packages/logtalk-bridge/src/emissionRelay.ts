import type { WorkerEmission } from './workerContract.js';

/** Serves one occurrence a worker raised; a rejection drops it with a warning. */
export type EmissionListener = (emission: WorkerEmission) => Promise<unknown>;

/**
 * Passes the occurrences workers raise (`mcp_emit/2,3`) to whoever serves the provider's event
 * types. Nothing listens unless the provider's events are served: then an occurrence is dropped
 * with a warning, as is one the listener refuses (an undeclared type, data that does not fit
 * the payload schema), since the worker that raised it has moved on and cannot be told.
 */
export class EmissionRelay {
  private listener: EmissionListener | undefined;

  constructor(private readonly warn: (message: string) => void) {}

  /** Sets the one listener (a second replaces the first); returns how to remove it. */
  listen(listener: EmissionListener): () => void {
    this.listener = listener;
    return () => {
      if (this.listener === listener) this.listener = undefined;
    };
  }

  emitted(emission: WorkerEmission, workerId: number): void {
    const dropped = (why: string) =>
      this.warn(`worker ${workerId}: dropped an occurrence of "${emission.event}": ${why}`);
    if (this.listener === undefined) return dropped("the provider's events are not served");
    this.listener(emission).catch((failure: unknown) =>
      dropped(failure instanceof Error ? failure.message : String(failure)),
    );
  }
}
