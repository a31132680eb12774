#!/usr/bin/env node
// `pnpm conformance:client`: runs the client leg of the official MCP conformance suite (pinned)
// against the conformance client fixture (apps/conformance-client, built on @rondo/client), once
// per revision, one run after the other (each already runs its scenarios in parallel), with the
// Node 22 from tooling/scripts/node22.sh for the runner; then the Skills extension's scenarios
// (`sep-2640-client-*`, in no requirement set, so each is run by name, one after the other). Prints each scenario's verdict and each run's totals; exits non-zero if any
// scored scenario or any Skills scenario fails.
//
//   node tooling/scripts/conformanceClient.mjs [--no-build] [--run 2025-11-25|2026-07-28|skills ...]
//
// Results (checks.json per scenario, the runner's log) land in conformance-results/client/<run>/.
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const resultsDir = join(root, 'conformance-results', 'client');
const RUNS = ['2025-11-25', '2026-07-28', 'skills'];
// Unscored extension scenarios the client must pass all the same.
const SKILL_SCENARIOS = [
  'sep-2640-client-no-prefetch',
  'sep-2640-client-verify-digest',
  'sep-2640-client-verify-size',
  'sep-2640-client-verify-frontmatter',
];
const CLIENT = join(root, 'apps/conformance-client/dist/main.js');
// The runner gives each client 30 s by default; its scenarios start at once, and on a small busy
// machine (CI, the test command's other files) one took longer, so each gets what the auth leg
// gives (test/conformance/clientAuth.test.ts): 240 s, eight times the default.
const SCENARIO_TIMEOUT_MS = '240000';

function parseArgs(argv) {
  const args = { build: true, runs: [] };
  for (let index = 0; index < argv.length; index += 1) {
    const flag = argv[index];
    if (flag === '--no-build') args.build = false;
    else if (flag === '--run' && RUNS.includes(argv[index + 1])) args.runs.push(argv[++index]);
    else {
      console.error(`conformance:client: unknown option ${flag} (runs: ${RUNS.join(', ')})`);
      process.exit(2);
    }
  }
  if (args.runs.length === 0) args.runs = RUNS;
  return args;
}

/** Runs the conformance runner's client leg with `args`; resolves with its exit code and output. */
function runRunner(node, args, outDir) {
  const cli = join(
    root,
    'tooling/node22/node_modules/@modelcontextprotocol/conformance/dist/index.js',
  );
  const command = `${process.execPath} ${CLIENT}`;
  return new Promise((resolve) => {
    const runnerArgs = ['client', '--command', command, '--timeout', SCENARIO_TIMEOUT_MS];
    const child = spawn(node, [cli, ...runnerArgs, ...args, '-o', outDir], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.once('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

function freshDir(run) {
  const outDir = join(resultsDir, run);
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  return outDir;
}

/** Runs one revision's requirements and returns the runner's exit code and output. */
async function runRequirements(node, run) {
  const outDir = freshDir(run);
  const { code, output } = await runRunner(node, ['--requirements', run], outDir);
  writeFileSync(join(outDir, 'run.log'), output);
  return summarise({ run, code, output });
}

/** Runs the Skills scenarios one by one (the runner takes one `--scenario` at a time). */
async function runSkills(node) {
  const outDir = freshDir('skills');
  const scenarios = [];
  let log = '';
  let passed = 0;
  let failed = 0;
  for (const name of SKILL_SCENARIOS) {
    const { code, output } = await runRunner(node, ['--scenario', name], outDir);
    log += output;
    const counts = /Passed: (\d+)\/(\d+), (\d+) failed/.exec(output);
    const checksPassed = Number(counts?.[1] ?? 0);
    const checksFailed = Number(counts?.[3] ?? 0);
    passed += checksPassed;
    failed += checksFailed;
    const ok = code === 0 && checksPassed > 0 && checksFailed === 0;
    scenarios.push({ name, passed: ok, scored: false, required: true });
  }
  writeFileSync(join(outDir, 'run.log'), log);
  return { run: 'skills', code: 0, scenarios, passed, failed };
}

/**
 * The scenario verdicts and totals in the runner's output. The summary lists every scenario run;
 * the ones the runner lists again under "Not scored for <revision>" (the extensions) are unscored.
 */
function summarise({ run, code, output }) {
  const lines = output.split('\n');
  const unscoredAt = lines.findIndex((line) => line.startsWith('Not scored for'));
  const unscored = new Set(
    unscoredAt === -1
      ? []
      : lines
          .slice(unscoredAt + 1)
          .map((line) => /^\s+[✓✗] (\S+) \(/.exec(line)?.[1])
          .filter(Boolean),
  );
  const scenarios = [];
  lines.forEach((line, index) => {
    if (unscoredAt !== -1 && index >= unscoredAt) return;
    const match = /^\s*([✓✗]) (\S+?): /.exec(line);
    if (!match) return;
    scenarios.push({
      name: match[2],
      passed: match[1] === '✓',
      scored: !unscored.has(match[2]),
    });
  });
  const total = /Total: (\d+) passed, (\d+) failed/.exec(output);
  return {
    run,
    code,
    scenarios,
    passed: Number(total?.[1] ?? 0),
    failed: Number(total?.[2] ?? 0),
  };
}

const args = parseArgs(process.argv.slice(2));
if (args.build) execFileSync('pnpm', ['build'], { cwd: root, stdio: 'inherit' });
const node = execFileSync('bash', [join(root, 'tooling/scripts/node22.sh')], {
  encoding: 'utf8',
}).trim();
// One run at a time: side by side, on a loaded machine (the test command runs other files
// meanwhile), the runner's clients missed its 30 s limit.
const results = [];
for (const run of args.runs) {
  results.push(run === 'skills' ? await runSkills(node) : await runRequirements(node, run));
}
let failing = false;
for (const result of results) {
  const scoredFailures = result.scenarios.filter((s) => (s.scored || s.required) && !s.passed);
  if (scoredFailures.length > 0 || result.code !== 0) failing = true;
  for (const scenario of result.scenarios) {
    const mark = scenario.passed ? 'PASS' : 'FAIL';
    console.log(
      `  ${result.run} ${mark} ${scenario.name}${scenario.scored ? '' : ' (not scored)'}`,
    );
  }
  const verdict = scoredFailures.length === 0 && result.code === 0 ? 'PASS' : 'FAIL';
  console.log(
    `conformance client ${result.run}: ${verdict} — Total: ${result.passed} passed, ${result.failed} failed`,
  );
}
process.exit(failing ? 1 : 0);
