import { availableParallelism, loadavg } from 'node:os';

/** The largest factor a measurement gives: past it, a machine is too busy to test timing at all. */
const MAX_MEASURED_FACTOR = 10;

/**
 * How many times slower than an idle machine this one runs the tests now, for their wall-clock
 * deadlines: `RONDO_TIME_FACTOR` when set (a CI machine known to be busy; `1` for an exact run),
 * otherwise measured: the one-minute load average per core, never below 1, at most 10.
 */
export function timeFactorOf(
  env: NodeJS.ProcessEnv = process.env,
  load: number = loadavg()[0] ?? 0,
  cores: number = availableParallelism(),
): number {
  const set = Number(env.RONDO_TIME_FACTOR);
  if (env.RONDO_TIME_FACTOR !== undefined && Number.isFinite(set) && set > 0) return set;
  return Math.min(MAX_MEASURED_FACTOR, Math.max(1, load / Math.max(1, cores)));
}

/** The factor of this test process, measured once when its first test file loads. */
export const TIME_FACTOR = timeFactorOf();

/** A deadline of `ms` on an idle machine, scaled by the time factor (a whole number of ms). */
export function scaled(ms: number): number {
  return Math.ceil(ms * TIME_FACTOR);
}
