import type { MemoryResult } from '../memory.js';
import { mib } from '../memory.js';
import type { ScenarioResult } from '../run.js';
import { AGAINST_RONDO } from '../scenarios.js';
import { bareBaseOf, cpuRatioTo, ratioTo, type GoalCheck } from './ratios.js';

const pad = (text: string, width: number, right = false) =>
  right ? text.padStart(width) : text.padEnd(width);
const ratio = (value: number | undefined) =>
  value === undefined ? '-' : value >= 10 ? `${value.toFixed(1)}x` : `${(value * 100).toFixed(0)}%`;

/** A Rondo contender against the SDK of its kind: the SDK v2 server, or for a client the SDK v2 client. */
function sdkRatio(scenario: ScenarioResult, c: ScenarioResult['contenders'][number]): string {
  if (c.role === 'rondo-client' || c.role === 'rondo-client-fetch')
    return ratio(ratioTo(scenario, c, 'sdk-client'));
  return c.role.startsWith('rondo') ? ratio(ratioTo(scenario, c, 'sdk')) : '';
}

/** A contender against its bare server (bare Hono, bare Bun.serve, the JSON-lines echo), if any. */
function bareRatio(scenario: ScenarioResult, c: ScenarioResult['contenders'][number]): string {
  const base = bareBaseOf(scenario, c.role);
  return base === undefined ? '' : ratio(ratioTo(scenario, c, base));
}

/** The results as a fixed-width text table, one block per scenario. */
export function formatTable(scenarios: ScenarioResult[]): string {
  const header = [
    pad('contender', 22),
    pad('req/s', 9, true),
    pad('p50 ms', 8, true),
    pad('p99 ms', 8, true),
    pad('CPU us/req', 10, true),
    pad('peak RSS', 11, true),
    pad('errors', 7, true),
    pad('/ceiling', 9, true),
    pad('/bare', 6, true),
    pad('/SDK', 8, true),
    pad('/TS', 6, true),
    pad('Redis/req', 9, true),
  ].join(' ');
  const blocks = scenarios.map((scenario) => {
    const rows = scenario.contenders.map((c) =>
      [
        pad(c.label, 22),
        pad(c.requestsPerSecond.toFixed(0), 9, true),
        pad(c.p50Ms.toFixed(2), 8, true),
        pad(c.p99Ms.toFixed(2), 8, true),
        pad(c.cpuUsPerRequest.toFixed(0), 10, true),
        pad(mib(c.peakRssBytes), 11, true),
        pad(String(c.errors), 7, true),
        pad(c.role === 'ceiling' ? '' : ratio(ratioTo(scenario, c, 'ceiling')), 9, true),
        pad(bareRatio(scenario, c), 6, true),
        pad(sdkRatio(scenario, c), 8, true),
        pad(AGAINST_RONDO.includes(c.role) ? ratio(ratioTo(scenario, c, 'rondo')) : '', 6, true),
        pad(c.redisCommandsPerRequest?.toFixed(3) ?? '', 9, true),
      ].join(' '),
    );
    return [`${scenario.id}: ${scenario.title}`, header, ...rows].join('\n');
  });
  return blocks.join('\n\n');
}

/**
 * What middleware costs against plain Rondo in the same scenario: throughput kept, and CPU time
 * per request added (steadier than throughput on a busy machine).
 */
export function formatOverhead(scenarios: ScenarioResult[]): string {
  const lines: string[] = [];
  for (const scenario of scenarios) {
    const base = scenario.contenders.find((c) => c.role === 'rondo');
    if (!base) continue;
    for (const c of scenario.contenders) {
      if (!MIDDLEWARE_ROLES.has(c.role)) continue;
      const kept = ratioTo(scenario, c, 'rondo');
      const cpu = cpuRatioTo(scenario, c, 'rondo');
      const added = c.cpuUsPerRequest - base.cpuUsPerRequest;
      lines.push(
        `${c.label}: ${c.requestsPerSecond.toFixed(0)} req/s (${ratio(kept)} of ${base.requestsPerSecond.toFixed(0)}), CPU ${c.cpuUsPerRequest.toFixed(1)} us/req (${added >= 0 ? '+' : ''}${added.toFixed(1)} us, requests per CPU-second ${ratio(cpu)} of Rondo's)${redisNote(c)} in ${scenario.id}`,
      );
    }
  }
  return lines.join('\n');
}

const MIDDLEWARE_ROLES = new Set(['rondo-noop-middleware', 'rondo-otel', 'rondo-policy']);

function redisNote(c: ScenarioResult['contenders'][number]): string {
  const perRequest = c.redisCommandsPerRequest;
  return perRequest === undefined ? '' : `, ${perRequest.toFixed(3)} Redis commands per request`;
}

/** The goals, one line each. */
export function formatGoals(checks: GoalCheck[]): string {
  return checks
    .map((c) =>
      c.figure === undefined
        ? `${c.met ? 'met   ' : 'MISSED'} ${c.goal}: ${c.contender} in ${c.scenario} = ${ratio(c.ratio)}, by CPU per request ${ratio(c.cpuRatio)} (goal ${ratio(c.target)})`
        : `${c.met ? 'met   ' : 'MISSED'} ${c.goal}: ${c.contender} in ${c.scenario} = ${c.figure}`,
    )
    .join('\n');
}

/** The memory checks in two lines. */
export function formatMemory(memory: MemoryResult): string {
  const { growth, sessions } = memory;
  const perSession = (sessions.rssWithSessions - sessions.rssIdle) / Math.max(1, sessions.count);
  return [
    `RSS after ${growth.baselineRequests} modern requests ${mib(growth.rssAfterBaseline)}, after ${growth.requests} ${mib(growth.rssAfterAll)} (heap ${mib(growth.heapAfterBaseline)} -> ${mib(growth.heapAfterAll)}, ${growth.errors} errors)`,
    `RSS idle ${mib(sessions.rssIdle)}, with ${sessions.count} idle legacy sessions ${mib(sessions.rssWithSessions)} (~${(perSession / 1024).toFixed(1)} KiB per session; heap ${mib(sessions.heapIdle)} -> ${mib(sessions.heapWithSessions)})`,
  ].join('\n');
}
