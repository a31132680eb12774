#!/usr/bin/env node
// `pnpm conformance:client`: runs the client leg of the official MCP conformance suite (pinned)
// against the conformance client fixture (apps/conformance-client, built on @rondo/client), once
// per revision, one run after the other (each already runs its scenarios in parallel), with the Node 22 from tooling/scripts/node22.sh for the
// runner. Prints each scenario's verdict and each run's totals; exits non-zero if any scored
// scenario fails.
//
//   node tooling/scripts/conformanceClient.mjs [--no-build] [--run 2025-11-25|2026-07-28 ...]
//
// Results (checks.json per scenario, the runner's log) land in conformance-results/client/<run>/.
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const resultsDir = join(root, 'conformance-results', 'client');
const RUNS = ['2025-11-25', '2026-07-28'];
const CLIENT = join(root, 'apps/conformance-client/dist/main.js');

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

/** Runs one revision's requirements and returns the runner's exit code and output. */
function runRequirements(node, run) {
  const outDir = join(resultsDir, run);
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const cli = join(
    root,
    'tooling/node22/node_modules/@modelcontextprotocol/conformance/dist/index.js',
  );
  const command = `${process.execPath} ${CLIENT}`;
  return new Promise((resolve) => {
    const child = spawn(
      node,
      [cli, 'client', '--command', command, '--requirements', run, '-o', outDir],
      {
        cwd: root,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.once('close', (code) => {
      writeFileSync(join(outDir, 'run.log'), output);
      resolve({ run, code: code ?? 1, output });
    });
  });
}

/** The scenario verdicts and totals in the runner's output. */
function summarise({ run, code, output }) {
  const lines = output.split('\n');
  const unscoredAt = lines.findIndex((line) => line.startsWith('Not scored for'));
  const scenarios = [];
  lines.forEach((line, index) => {
    const match = /^\s*([✓✗]) (\S+?)(?::| \()/.exec(line);
    if (!match) return;
    scenarios.push({
      name: match[2],
      passed: match[1] === '✓',
      scored: unscoredAt === -1 || index < unscoredAt,
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
const results = (await Promise.all(args.runs.map((run) => runRequirements(node, run)))).map(
  summarise,
);
let failing = false;
for (const result of results) {
  const scoredFailures = result.scenarios.filter((s) => s.scored && !s.passed);
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
