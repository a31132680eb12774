import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { runMemory, type MemoryResult } from './memory.js';
import { parseOptions } from './options.js';
import { checkGoals } from './report/ratios.js';
import { renderSvg } from './report/svg.js';
import { formatScaleOut } from './report/scaleOut.js';
import { formatGoals, formatMemory, formatOverhead, formatTable } from './report/table.js';
import { runScenario, type ScenarioResult } from './run.js';
import { SCENARIOS } from './scenarios.js';

/**
 * `pnpm bench`: every scenario in one orchestrated run on 127.0.0.1, then the table, the goals,
 * `bench/results/latest.json` and `bench/results/latest.svg`.
 */

const RESULTS_DIR = fileURLToPath(new URL('../results/', import.meta.url));

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const log = (line: string) => console.log(line);
  const wanted = (id: string) => options.only.length === 0 || options.only.includes(id);
  const loadBefore = loadavg()[0] ?? 0;
  const startedAt = new Date();
  log(
    `rondo bench (${options.quick ? 'quick' : 'full'}): ${options.rounds} slices of ${options.sliceMs} ms per contender, ${cpus().length} CPUs, load average ${loadBefore.toFixed(2)}`,
  );

  const scenarios: ScenarioResult[] = [];
  for (const scenario of SCENARIOS.filter((s) => wanted(s.id))) {
    log(`${scenario.id}: ${scenario.title}`);
    scenarios.push(await runScenario(scenario, options, log));
  }
  const memory: MemoryResult | undefined = wanted('memory')
    ? await runMemory(options, log)
    : undefined;
  const goals = checkGoals(scenarios);
  const loadAfter = loadavg()[0] ?? 0;

  log(`\n${formatTable(scenarios)}`);
  if (memory) log(`\nmemory\n${formatMemory(memory)}`);
  const overhead = formatOverhead(scenarios);
  if (overhead) log(`\nmiddleware against plain Rondo\n${overhead}`);
  const scaleOut = formatScaleOut(scenarios);
  if (scaleOut) log(`\nscale-out: Redis against the balancer and the extra processes\n${scaleOut}`);
  log(`\ngoals (reported, never asserted)\n${formatGoals(goals)}`);
  log(
    `\nload average ${loadBefore.toFixed(2)} before, ${loadAfter.toFixed(2)} after: other work on this machine shows up as noise`,
  );

  const machine = {
    node: process.version,
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model ?? '',
    loadBefore,
    loadAfter,
  };
  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(
    `${RESULTS_DIR}latest.json`,
    `${JSON.stringify({ startedAt: startedAt.toISOString(), options, machine, scenarios, memory, goals }, null, 2)}\n`,
  );
  const caption = `Rondo bench ${startedAt.toISOString().slice(0, 16)} (${options.quick ? 'quick' : 'full'}, ${machine.cpus} CPUs, load ${loadBefore.toFixed(1)})`;
  writeFileSync(`${RESULTS_DIR}latest.svg`, renderSvg(scenarios, caption));
  log(`\nwrote ${RESULTS_DIR}latest.json and latest.svg`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
