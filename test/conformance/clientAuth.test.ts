import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';

// Issue 25, done-when 1 (the OAuth half): the official suite's client leg, run on Node 22 against
// the conformance client fixture (apps/conformance-client, built by the test command), passes the
// `auth` suite and every auth/* scenario the 2025-11-25 and 2026-07-28 requirement sets score; the
// client-credentials extension scenarios pass too. The other unscored auth extensions
// (enterprise-managed authorization, DPoP, workload identity) are run and their counts printed.

const root = join(import.meta.dirname, '..', '..');
const cli = join(
  root,
  'tooling/node22/node_modules/@modelcontextprotocol/conformance/dist/index.js',
);
const command = `node ${join(root, 'apps/conformance-client/dist/main.js')}`;
// The suite starts every scenario at once; on a small shared machine each one is slow.
const SCENARIO_TIMEOUT_MS = '240000';
const resultDirs: string[] = [];
afterAll(() => {
  for (const dir of resultDirs) rmSync(dir, { recursive: true, force: true });
});

interface ScenarioLine {
  scenario: string;
  ok: boolean;
  passed: number;
  failed: number;
}

interface SuiteRun {
  code: number;
  output: string;
  lines: ScenarioLine[];
  /** The per-scenario results (`checks.json`, the fixture's stderr), for a failure's message. */
  results: string;
}

function runClientSuite(args: readonly string[]): Promise<SuiteRun> {
  const results = mkdtempSync(join(tmpdir(), 'rondo-client-conformance-'));
  resultDirs.push(results);
  const node = execFileSync('bash', [join(root, 'tooling/scripts/node22.sh')], {
    encoding: 'utf8',
  }).trim();
  const argv = [cli, 'client', '--command', command, '--timeout', SCENARIO_TIMEOUT_MS];
  return new Promise((resolve) => {
    const child = spawn(node, [...argv, '-o', results, ...args], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    // The per-scenario logs go to stderr and into the results; only the summary is read.
    child.stderr.resume();
    child.once('close', (code) =>
      resolve({ code: code ?? 1, output, lines: summaryLines(output), results }),
    );
  });
}

function summaryLines(output: string): ScenarioLine[] {
  return [...output.matchAll(/^([✓✗]) (\S+): (\d+) passed, (\d+) failed/gm)].map(
    ([, mark, scenario, passed, failed]) => ({
      scenario: scenario!,
      ok: mark === '✓',
      passed: Number(passed),
      failed: Number(failed),
    }),
  );
}

/** The failed checks and the fixture's stderr of one scenario, for an assertion's message. */
function explain(run: SuiteRun, scenario: string): string {
  const folder = join(run.results, ...scenario.split('/').slice(0, -1));
  const base = scenario.split('/').at(-1)!;
  const dirs = readdirSync(folder).filter((entry) => entry.startsWith(`${base}-`));
  return dirs
    .map((dir) => {
      const checks = JSON.parse(readFileSync(join(folder, dir, 'checks.json'), 'utf8')) as {
        id: string;
        status: string;
        description: string;
      }[];
      const failed = checks.filter(
        (check) => check.status === 'FAILURE' || check.status === 'WARNING',
      );
      const stderr = readFileSync(join(folder, dir, 'stderr.txt'), 'utf8').slice(0, 2000);
      return `${scenario}: ${failed.map((check) => `${check.id}: ${check.description}`).join('; ')}\n${stderr}`;
    })
    .join('\n');
}

const SCORED_2025 = [
  'auth/metadata-default',
  'auth/metadata-var1',
  'auth/metadata-var2',
  'auth/metadata-var3',
  'auth/basic-cimd',
  'auth/scope-from-www-authenticate',
  'auth/scope-from-scopes-supported',
  'auth/scope-omitted-when-undefined',
  'auth/scope-step-up',
  'auth/scope-retry-limit',
  'auth/token-endpoint-auth-basic',
  'auth/token-endpoint-auth-post',
  'auth/token-endpoint-auth-none',
  'auth/pre-registration',
];
const SCORED_2026 = [
  ...SCORED_2025,
  'auth/resource-mismatch',
  'auth/offline-access-scope',
  'auth/offline-access-not-supported',
  'auth/authorization-server-migration',
  'auth/iss-supported',
  'auth/iss-not-advertised',
  'auth/iss-supported-missing',
  'auth/iss-wrong-issuer',
  'auth/iss-unexpected',
  'auth/iss-normalized',
  'auth/metadata-issuer-mismatch',
];
const MUST_PASS_EXTENSIONS = ['auth/client-credentials-jwt', 'auth/client-credentials-basic'];

function describeLines(lines: readonly ScenarioLine[]): string {
  return lines
    .map(
      (line) =>
        `${line.ok ? 'pass' : 'FAIL'} ${line.scenario}: ${line.passed} passed, ${line.failed} failed`,
    )
    .join('\n');
}

describe('the official conformance suite against the client fixture: OAuth', () => {
  it('passes the auth suite', { timeout: scaled(900_000) }, async () => {
    const run = await runClientSuite(['--suite', 'auth']);
    console.log(`auth suite:\n${describeLines(run.lines)}`);
    expect(run.lines.map((line) => line.scenario).sort()).toEqual([...SCORED_2025].sort());
    const failing = run.lines.filter((line) => !line.ok || line.passed === 0);
    expect(failing, failing.map((line) => explain(run, line.scenario)).join('\n')).toEqual([]);
    expect(run.code, run.output).toBe(0);
  });

  for (const [revision, scored] of [
    ['2025-11-25', SCORED_2025],
    ['2026-07-28', SCORED_2026],
  ] as const) {
    it(
      `passes every auth/* scenario of the ${revision} requirements, and the client-credentials extension`,
      { timeout: scaled(900_000) },
      async () => {
        const run = await runClientSuite(['--requirements', revision]);
        const auth = run.lines.filter((line) => line.scenario.startsWith('auth/'));
        console.log(`requirements ${revision}, auth/*:\n${describeLines(auth)}`);
        const mustPass = [...scored, ...MUST_PASS_EXTENSIONS];
        const missing = mustPass.filter((name) => !auth.some((line) => line.scenario === name));
        expect(missing, run.output).toEqual([]);
        const failing = auth.filter((line) => mustPass.includes(line.scenario) && !line.ok);
        expect(failing, failing.map((line) => explain(run, line.scenario)).join('\n')).toEqual([]);
      },
    );
  }
});
