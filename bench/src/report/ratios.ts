import type { ContenderResult, ScenarioResult } from '../run.js';
import type { Role } from '../scenarios.js';

/** One goal of the benchmark issue checked against one measurement (a report, never an assertion). */
export interface GoalCheck {
  goal: string;
  scenario: string;
  contender: string;
  /** The measured throughput ratio. */
  ratio: number;
  /** The same comparison by server CPU time per request (base / contender): steadier on a busy machine. */
  cpuRatio: number | undefined;
  target: number;
  met: boolean;
  /** For a goal that is not a throughput ratio (Redis commands per request): the figure, printed as is. */
  figure?: string;
}

/** A contender's throughput relative to another contender of the same scenario. */
export function ratioTo(
  scenario: ScenarioResult,
  who: ContenderResult,
  role: Role,
): number | undefined {
  const base = scenario.contenders.find((c) => c.role === role);
  return base && base.requestsPerSecond > 0
    ? who.requestsPerSecond / base.requestsPerSecond
    : undefined;
}

const HTTP_ROLES: Role[] = ['rondo', 'rondo-express'];

/**
 * The bare server a contender is held to beside the transport ceiling: the fetch handler on Node
 * against bare Hono on `@hono/node-server`, on Bun against bare `Bun.serve`, Rondo over stdio
 * against the bare JSON-lines echo (each parses or reads the same request, answers the same JSON).
 */
export function bareBaseOf(scenario: ScenarioResult, role: Role): Role | undefined {
  if (role === 'rondo-fetch-node') return 'hono-bare';
  if (role === 'rondo-fetch-bun') return 'bun-bare';
  if ((role === 'rondo' || role === 'rondo-fixture') && scenario.transport === 'stdio')
    return 'json-echo';
  return undefined;
}

/** How many requests the contender serves per CPU-second of the base's, as a fraction. */
export function cpuRatioTo(
  scenario: ScenarioResult,
  who: ContenderResult,
  role: Role,
): number | undefined {
  const base = scenario.contenders.find((c) => c.role === role);
  return base && who.cpuUsPerRequest > 0 ? base.cpuUsPerRequest / who.cpuUsPerRequest : undefined;
}

/** Checks every goal the issue sets against the scenarios that measure it. */
export function checkGoals(scenarios: ScenarioResult[]): GoalCheck[] {
  const checks: GoalCheck[] = [];
  const add = (
    goal: string,
    scenario: ScenarioResult,
    who: ContenderResult,
    base: Role,
    target: number,
  ) => {
    const ratio = ratioTo(scenario, who, base);
    const cpuRatio = cpuRatioTo(scenario, who, base);
    if (ratio !== undefined)
      checks.push({
        goal,
        scenario: scenario.id,
        contender: who.label,
        ratio,
        cpuRatio,
        target,
        met: ratio >= target,
      });
  };
  for (const scenario of scenarios) {
    for (const who of scenario.contenders) {
      if (scenario.transport === 'http' && HTTP_ROLES.includes(who.role)) {
        add('HTTP >= 60% of the node:http ceiling', scenario, who, 'ceiling', 0.6);
        add('HTTP >= 20x the SDK v2', scenario, who, 'sdk', 20);
      }
      if (scenario.id === 'http-modern-c50' && who.role === 'rondo')
        add('modern HTTP at c50 >= 80% of the node:http ceiling', scenario, who, 'ceiling', 0.8);
      if (who.role === 'rondo-fetch-node') {
        add('fetch handler on Node >= 80% of the node handler', scenario, who, 'rondo', 0.8);
        add('fetch handler on Node >= 70% of bare Hono', scenario, who, 'hono-bare', 0.7);
      }
      if (who.role === 'rondo-fetch-bun')
        add('fetch handler on Bun >= 70% of bare Bun.serve', scenario, who, 'bun-bare', 0.7);
      if (scenario.transport === 'stdio' && who.role === 'rondo') {
        add('stdio >= 50% of the raw echo', scenario, who, 'ceiling', 0.5);
        add('stdio >= 85% of the bare JSON-lines echo', scenario, who, 'json-echo', 0.85);
      }
      if (who.role === 'rondo-fixture')
        add(
          'conformance fixture over stdio >= 85% of the bare JSON-lines echo',
          scenario,
          who,
          'json-echo',
          0.85,
        );
      // The relays are measured against the same goal: the floor any process in the middle has.
      if (who.role === 'rondo-gateway' || who.role === 'stdio-relay') {
        // A CPU goal (issue 40): the pass-through path may cost at most 3x the direct path per call.
        const cpuRatio = cpuRatioTo(scenario, who, 'rondo');
        const ratio = ratioTo(scenario, who, 'rondo');
        if (cpuRatio !== undefined && ratio !== undefined) {
          checks.push({
            goal: 'gateway pass-through <= 3x the CPU per call of the direct stdio path',
            scenario: scenario.id,
            contender: who.label,
            ratio,
            cpuRatio,
            target: 1 / 3,
            met: cpuRatio >= 1 / 3,
            figure: `${(1 / cpuRatio).toFixed(2)}x CPU per call`,
          });
        }
      }
      if (who.role === 'rondo-client')
        add('Rondo client >= 2x the SDK v2 client', scenario, who, 'sdk-client', 2);
      if (who.role === 'rondo-bridge') {
        add('bridge >= 50% of the TS-native tool', scenario, who, 'rondo', 0.5);
        add('bridge >= 70% of the bare SWI-Prolog echo', scenario, who, 'swipl-echo', 0.7);
        add(
          'bridge >= 50% of the bare SWI-Prolog term echo',
          scenario,
          who,
          'swipl-term-echo',
          0.5,
        );
      }
    }
  }
  return [...checks, ...scaleOutGoals(scenarios), ...policyGoals(scenarios)];
}

/**
 * The built-in policies' goals: a rate limit on the memory store keeps 95% of plain Rondo's req/s,
 * one on Redis costs one round trip (one command) per call.
 */
function policyGoals(scenarios: ScenarioResult[]): GoalCheck[] {
  const checks: GoalCheck[] = [];
  for (const scenario of scenarios) {
    for (const who of scenario.contenders.filter((c) => c.role === 'rondo-policy')) {
      if (who.label.includes('rate limit (memory)')) {
        const ratio = ratioTo(scenario, who, 'rondo');
        if (ratio === undefined) continue;
        checks.push({
          goal: 'rate limit on the memory store costs < 5% of req/s',
          scenario: scenario.id,
          contender: who.label,
          ratio,
          cpuRatio: cpuRatioTo(scenario, who, 'rondo'),
          target: 0.95,
          met: ratio >= 0.95,
        });
      }
      if (who.label.includes('rate limit (Redis)')) {
        const perRequest = who.redisCommandsPerRequest ?? Number.NaN;
        checks.push({
          goal: 'rate limit on Redis: one round trip per call',
          scenario: scenario.id,
          contender: who.label,
          ratio: perRequest,
          cpuRatio: undefined,
          target: 1,
          met: Math.abs(perRequest - 1) < 0.01,
          figure: `${perRequest.toFixed(3)} commands per request`,
        });
      }
    }
  }
  return checks;
}

/** Within this fraction of the in-memory req/s counts as "within noise" on a shared machine. */
const NOISE = 0.9;

/**
 * The scale-out goals: legacy calls on Redis keep half the in-memory throughput, and a plain modern
 * call sends no Redis command at all (so its throughput stays within noise of the in-memory one).
 */
function scaleOutGoals(scenarios: ScenarioResult[]): GoalCheck[] {
  const checks: GoalCheck[] = [];
  const onRedis = (c: ContenderResult) => c.role === 'rondo-redis' || c.role === 'rondo-replicas';
  const throughput = (
    goal: string,
    scenario: ScenarioResult,
    who: ContenderResult,
    target: number,
  ) => {
    const ratio = ratioTo(scenario, who, 'rondo');
    if (ratio === undefined) return;
    const cpuRatio = cpuRatioTo(scenario, who, 'rondo');
    checks.push({
      goal,
      scenario: scenario.id,
      contender: who.label,
      ratio,
      cpuRatio,
      target,
      met: ratio >= target,
    });
  };
  for (const scenario of scenarios) {
    for (const who of scenario.contenders.filter(onRedis)) {
      if (scenario.id.startsWith('http-legacy-redis'))
        throughput('legacy on Redis >= 50% of in-memory legacy req/s', scenario, who, 0.5);
      if (scenario.id !== 'http-modern-redis') continue;
      const perRequest = who.redisCommandsPerRequest ?? Number.NaN;
      checks.push({
        goal: 'modern on Redis: 0 Redis commands per plain modern call',
        scenario: scenario.id,
        contender: who.label,
        ratio: perRequest,
        cpuRatio: undefined,
        target: 0,
        met: perRequest === 0,
        figure: `${perRequest.toFixed(3)} commands per request`,
      });
      if (who.role === 'rondo-redis')
        throughput(
          'modern on Redis: req/s within noise (>= 90%) of in-memory',
          scenario,
          who,
          NOISE,
        );
    }
  }
  return checks;
}
