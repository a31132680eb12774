/** What one timed slice of load against one contender measured. */
export interface SliceResult {
  /** Requests answered (successfully or not). */
  requests: number;
  /** Wall time of the slice. */
  durationMs: number;
  /** Latency percentiles, in milliseconds. */
  p50: number;
  p99: number;
  /** Transport errors, timeouts, non-2xx answers and wrong answers. */
  errors: number;
  /**
   * CPU time the contender reports it used in the slice (a client under test counts its own
   * process only: the server it calls is not the client); otherwise its process tree is measured.
   */
  cpuMs?: number;
}

/** Runs one slice of load for about `durationMs`. */
export type Driver = (durationMs: number) => Promise<SliceResult>;

/** The `q`-quantile of ascending `sorted` values (nearest rank). */
export function quantile(sorted: ArrayLike<number>, q: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank] ?? 0;
}
