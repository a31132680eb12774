import type { ContenderResult, ScenarioResult } from '../run.js';
import type { Role } from '../scenarios.js';

const percent = (value: number) => `${(value * 100).toFixed(0)}%`;

function find(scenarios: ScenarioResult[], id: string, role: Role): ContenderResult | undefined {
  return scenarios.find((s) => s.id === id)?.contenders.find((c) => c.role === role);
}

/**
 * What Redis itself costs the three replicas, apart from the balancer and the extra processes: the
 * Redis replicas against the in-memory replicas behind the same nginx (modern calls), and their
 * legacy calls against their own modern calls. Empty when the scale-out scenarios did not run.
 */
export function formatScaleOut(scenarios: ScenarioResult[]): string {
  const lines: string[] = [];
  const onRedis = find(scenarios, 'http-modern-redis', 'rondo-replicas');
  const inMemory = find(scenarios, 'http-modern-redis', 'rondo-replicas-memory');
  if (onRedis && inMemory && inMemory.requestsPerSecond > 0 && onRedis.cpuUsPerRequest > 0) {
    lines.push(
      `${onRedis.label} against ${inMemory.label}, modern calls: ${percent(onRedis.requestsPerSecond / inMemory.requestsPerSecond)} of its req/s, requests per CPU-second ${percent(inMemory.cpuUsPerRequest / onRedis.cpuUsPerRequest)}`,
    );
  }
  for (const id of ['http-legacy-redis', 'http-legacy-redis-1-session']) {
    const legacy = find(scenarios, id, 'rondo-replicas');
    if (!legacy || !onRedis || onRedis.requestsPerSecond === 0 || legacy.cpuUsPerRequest === 0)
      continue;
    lines.push(
      `${legacy.label}, legacy calls in ${id} against its modern calls: ${percent(legacy.requestsPerSecond / onRedis.requestsPerSecond)} of the req/s, requests per CPU-second ${percent(onRedis.cpuUsPerRequest / legacy.cpuUsPerRequest)}`,
    );
  }
  return lines.join('\n');
}
