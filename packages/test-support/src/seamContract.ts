/**
 * What every seam contract opens: the seam as seen from each of `count` processes serving one
 * endpoint (for a store in memory, the one store each of them reads), and how to release them.
 */
export interface OpenedSeam<Seam> {
  readonly processes: readonly Seam[];
  close(): Promise<void>;
}

/** Resolves after `ms`. */
export function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Runs `run` on a freshly opened seam and releases it after, whatever happened. */
export function withOpened<Seam, Options>(
  open: (count: number, options?: Options) => Promise<OpenedSeam<Seam>>,
  count: number,
  run: (processes: readonly Seam[]) => Promise<void>,
  options?: Options,
): () => Promise<void> {
  return async () => {
    const opened = await open(count, options);
    try {
      await run(opened.processes);
    } finally {
      await opened.close();
    }
  };
}
