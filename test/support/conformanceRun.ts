import { spawn } from 'node:child_process';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..', '..');

/** One run of the official conformance suite, as the conformance script reports it. */
export interface ConformanceTotal {
  run: string;
  verdict: string;
  passed: number;
  failed: number;
}

/**
 * Runs `pnpm conformance` (the script itself, with `--no-build`: the test command has built
 * already) with `args`, and returns its exit code, everything it printed and the total of each run.
 */
export function runConformance(
  args: readonly string[] = [],
): Promise<{ code: number; output: string; totals: ConformanceTotal[] }> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [join(root, 'tooling/scripts/conformance.mjs'), '--no-build', ...args],
      { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('close', (code) => resolve({ code: code ?? 1, output, totals: totalsOf(output) }));
  });
}

function totalsOf(output: string): ConformanceTotal[] {
  return [
    ...output.matchAll(/^conformance (\S+): (PASS|FAIL) — Total: (\d+) passed, (\d+) failed/gm),
  ].map(([, run, verdict, passed, failed]) => ({
    run: run!,
    verdict: verdict!,
    passed: Number(passed),
    failed: Number(failed),
  }));
}

/**
 * One line per run: `<revision>: N checks passed, M failing`. (Worded apart from the suite's own
 * `N passed, N failed` summary line, which CI reads.)
 */
export function describeTotals(totals: readonly ConformanceTotal[]): string {
  return totals
    .map((total) => `${total.run}: ${total.passed} checks passed, ${total.failed} failing`)
    .join('\n');
}
