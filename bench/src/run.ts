import { ServerChild } from './child.js';
import type { SliceResult } from './load/slice.js';
import type { BenchOptions } from './options.js';
import type { BoundDriver, Contender, Role, Scenario } from './scenarios.js';

/** One contender's totals over all its slices in a scenario. */
export interface ContenderResult {
  label: string;
  role: Role;
  requestsPerSecond: number;
  /** Request-weighted means of the slices' percentiles, in milliseconds. */
  p50Ms: number;
  p99Ms: number;
  /** Server CPU time per request (process tree, user + system), in microseconds. */
  cpuUsPerRequest: number;
  /** Peak RSS of the server's process tree (Prolog workers included). */
  peakRssBytes: number;
  requests: number;
  errors: number;
  /** Redis commands sent per request answered, for a contender that keeps its state in Redis. */
  redisCommandsPerRequest?: number;
}

/** A scenario's results. */
export interface ScenarioResult {
  id: string;
  title: string;
  transport: Scenario['transport'];
  contenders: ContenderResult[];
}

interface Running {
  contender: Contender;
  child: ServerChild;
  driver: BoundDriver;
  slices: SliceResult[];
  cpuMs: number;
  /** Redis commands sent during the slices, when the server counts them. */
  redisCommands: number | undefined;
}

/**
 * Runs one scenario: starts every contender, warms each up, then gives them equal slices in turn
 * (A B C A B C ...) so machine drift falls on all of them alike, and stops them.
 */
export async function runScenario(
  scenario: Scenario,
  options: BenchOptions,
  log: (line: string) => void,
): Promise<ScenarioResult> {
  const running: Running[] = [];
  try {
    for (const contender of scenario.contenders) {
      const child = await ServerChild.start(contender.server);
      running.push({
        contender,
        child,
        driver: await scenario.bind(child, contender),
        slices: [],
        cpuMs: 0,
        redisCommands: undefined,
      });
    }
    for (const entry of running) await entry.driver.run(options.warmupMs);
    for (let round = 0; round < options.rounds; round++) {
      for (const entry of running) {
        await measureSlice(entry, options.sliceMs);
        await settle(entry.child);
      }
      log(
        `  round ${round + 1}/${options.rounds}: ${running.map((e) => `${e.contender.label} ${rate(e.slices.at(-1)).toFixed(0)}/s`).join(', ')}`,
      );
    }
    return {
      id: scenario.id,
      title: scenario.title,
      transport: scenario.transport,
      contenders: running.map(summarise),
    };
  } finally {
    for (const entry of running) {
      await entry.driver.close();
      await entry.child.stop();
    }
  }
}

/** One slice on one contender, with the server's CPU time and Redis commands it took. */
async function measureSlice(entry: Running, sliceMs: number): Promise<void> {
  const redisBefore = (await entry.child.counters()).redisCommands;
  const cpuBefore = entry.child.cpuMs();
  const slice = await entry.driver.run(sliceMs);
  entry.slices.push(slice);
  entry.cpuMs += slice.cpuMs ?? entry.child.cpuMs() - cpuBefore;
  const redisAfter = (await entry.child.counters()).redisCommands;
  if (redisBefore !== undefined && redisAfter !== undefined)
    entry.redisCommands = (entry.redisCommands ?? 0) + redisAfter - redisBefore;
}

/**
 * Waits until a server is quiet again (under 5% of a CPU for 100 ms, at most 5 s), so work a slice
 * left behind (say, Prolog workers restarting after cancelled calls) does not fall on the next
 * contender's slice.
 */
async function settle(child: ServerChild): Promise<void> {
  const deadline = Date.now() + 5000;
  for (let before = child.cpuMs(); Date.now() < deadline;) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const now = child.cpuMs();
    if (now - before < 5) return;
    before = now;
  }
}

function rate(slice: SliceResult | undefined): number {
  return slice && slice.durationMs > 0 ? (slice.requests * 1000) / slice.durationMs : 0;
}

function summarise(entry: Running): ContenderResult {
  const requests = entry.slices.reduce((sum, s) => sum + s.requests, 0);
  const durationMs = entry.slices.reduce((sum, s) => sum + s.durationMs, 0);
  const weighted = (pick: (s: SliceResult) => number) =>
    requests === 0 ? 0 : entry.slices.reduce((sum, s) => sum + pick(s) * s.requests, 0) / requests;
  return {
    label: entry.contender.label,
    role: entry.contender.role,
    requestsPerSecond: durationMs > 0 ? (requests * 1000) / durationMs : 0,
    p50Ms: weighted((s) => s.p50),
    p99Ms: weighted((s) => s.p99),
    cpuUsPerRequest: requests === 0 ? 0 : (entry.cpuMs * 1000) / requests,
    peakRssBytes: entry.child.peakRss(),
    requests,
    errors: entry.slices.reduce((sum, s) => sum + s.errors, 0),
    ...(entry.redisCommands === undefined
      ? {}
      : { redisCommandsPerRequest: requests === 0 ? 0 : entry.redisCommands / requests }),
  };
}
