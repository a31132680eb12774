import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { TIME_FACTOR } from './packages/test-support/src/timeFactor.js';

// Absolute roots, so a run started from a package folder (`pnpm --filter @rondo/core test`) finds them.
const repoRoot = fileURLToPath(new URL('.', import.meta.url));

// The Logtalk-flavour tests need a Logtalk distribution: LOGTALKHOME, or the one beside the checkout
// (../shared/logtalk, which the tests default to). Without either they are left out, saying why.
const logtalkFound =
  Boolean(process.env.LOGTALKHOME) ||
  existsSync(`${repoRoot}../shared/logtalk/integration/logtalk_swi.pl`);
// Every test file that calls logtalkHomeForTests() is listed here, by project (test/repo/logtalkFiles.test.ts
// holds the list to that), so a clone without Logtalk leaves each of them out instead of failing.
export const LOGTALK_TEST_FILES: Record<string, string[]> = {
  'logtalk-bridge': [
    'test/logtalk.test.ts',
    'test/logtalkEnvironment.test.ts',
    'test/examples.test.ts',
    'test/workerSpace.test.ts',
  ],
  integration: [
    'test/bridge/logtalkWire.test.ts',
    'test/bridge/upstreamSuite.test.ts',
    'test/bridge/fidelityWire.test.ts',
    'test/bridge/desktopEnvironment.test.ts',
    'test/bridge/devTools.test.ts',
    'test/bridge/watchReloadLog.test.ts',
    'test/bridge/prologSkills.test.ts',
    'test/bridge/prologEvents.test.ts',
    'test/bridge/appsWire.test.ts',
    'test/gateway/skillsPassThrough.test.ts',
    'test/gateway/eventsPassThrough.test.ts',
  ],
};
const withoutLogtalk = (project: string): string[] =>
  logtalkFound ? [] : (LOGTALK_TEST_FILES[project] ?? []);
if (!logtalkFound) {
  console.warn(
    'vitest: skipping the Logtalk-flavour test files (no LOGTALKHOME and no ../shared/logtalk ' +
      `beside the checkout): ${Object.values(LOGTALK_TEST_FILES).flat().join(', ')}`,
  );
}

// One run over every package: each folder with tests is a project, so `--project core` narrows it.
// Projects extend this file, so the timeouts below hold however a run is filtered.
const projects = [
  'protocol',
  'core',
  'adapter-2026',
  'adapter-2025',
  'transport-stdio',
  'transport-http',
  'transport-ws',
  'server',
  'logtalk-bridge',
  'otel',
  'skills',
  'tasks',
  'events',
  'create-rondo',
  'redis',
  'policies',
  'auth',
  'client',
  'proxy',
  'openapi',
].map((name) => ({
  extends: true as const,
  test: {
    name,
    root: `${repoRoot}packages/${name}`,
    include: ['test/**/*.test.ts'],
    exclude: ['**/node_modules/**', ...withoutLogtalk(name)],
  },
}));

// The HTTP test table runs once more over each other edge of the same transport (the fetch
// handler on Node, Hono, Fastify); the node-server-only tests stay in the first run.
// packages/apps is a project of its own name: `apps` is already the apps/* folder's project.
projects.push({
  extends: true as const,
  test: {
    name: 'apps-extension',
    root: `${repoRoot}packages/apps`,
    include: ['test/**/*.test.ts'],
    exclude: ['**/node_modules/**'],
  },
});

const httpEdges = ['fetch', 'hono', 'fastify'].map((edge) => ({
  extends: true as const,
  test: {
    name: `transport-http@${edge}`,
    root: `${repoRoot}packages/transport-http`,
    include: ['test/**/*.test.ts'],
    exclude: [
      'test/connectionLimits.test.ts',
      'test/expressRouter.test.ts',
      'test/eventStore.test.ts',
    ],
    env: { RONDO_HTTP_EDGE: edge },
  },
}));

// Run last, one file at a time, with the machine to themselves: the floods and deadline measurements
// (what they assert, a cut within its deadline or a p99 under load, is about Rondo, not about how
// many other files share the two cores), and the conformance suite's client leg, whose runner gives
// each client 30 s.
const RUN_ALONE = ['test/reliability/**/*.test.ts', 'test/conformance/client*.test.ts'];

const reportFile = process.env.RONDO_TEST_REPORT;
// One factor for the whole run: measured here once and handed to every worker (and to the config's
// other evaluations) through the environment, unless it was set there already.
// The run's own workers load the machine at least this much once they start, which the load average
// measured before them cannot show: a CI run on an idle two-core machine climbs to a load of 8-10.
const OWN_LOAD_FACTOR = 2;
if (process.env.RONDO_TIME_FACTOR === undefined) {
  const factor = Math.max(TIME_FACTOR, OWN_LOAD_FACTOR);
  process.env.RONDO_TIME_FACTOR = factor.toFixed(2);
  if (factor > 1) {
    console.warn(
      `vitest: wall-clock deadlines scaled by ${process.env.RONDO_TIME_FACTOR} (the load per core; RONDO_TIME_FACTOR sets it)`,
    );
  }
}

/** A deadline of `ms` on an idle machine, scaled by the run's factor (as the workers' `scaled`). */
function runScaled(ms: number): number {
  return Math.ceil(ms * Number(process.env.RONDO_TIME_FACTOR));
}

export default defineConfig({
  test: {
    projects: [
      ...projects,
      ...httpEdges,
      {
        extends: true as const,
        test: { name: 'apps', root: repoRoot, include: ['apps/*/test/**/*.test.ts'] },
      },
      {
        extends: true as const,
        test: {
          name: 'integration',
          root: repoRoot,
          include: ['test/**/*.test.ts'],
          exclude: ['**/node_modules/**', ...RUN_ALONE, ...withoutLogtalk('integration')],
        },
      },
      {
        extends: true as const,
        test: {
          name: 'alone',
          root: repoRoot,
          include: RUN_ALONE,
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
        },
      },
    ],
    // Most test files wait on child processes and sockets more than they compute: three at a time
    // keep two cores busy (vitest's default here would be one, cores - 1).
    maxWorkers: 3,
    // Scaled by the machine's load (or RONDO_TIME_FACTOR), like the tests' own deadlines.
    testTimeout: runScaled(30_000),
    hookTimeout: runScaled(60_000),
    // expect.poll waits for something that happens once a child process or socket gets to it: a
    // second (vitest's default) is too short on a busy CI machine (gatewayAuth's first listing failed so).
    expect: { poll: { timeout: runScaled(15_000), interval: 50 } },
    reporters: reportFile ? ['default', 'json'] : ['default'],
    ...(reportFile ? { outputFile: { json: reportFile } } : {}),
  },
});
