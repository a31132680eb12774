import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// Issue 7, done-when 1: the Prolog-hosted fixture passes the same three conformance runs as the
// TypeScript fixture (`pnpm conformance --fixture prolog`), exit 0, no expected-failures file.

const root = join(import.meta.dirname, '..', '..');

/** Runs the conformance script against the Prolog fixture (the test command has built already). */
function runConformance(): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [join(root, 'tooling/scripts/conformance.mjs'), '--no-build', '--fixture', 'prolog'],
      { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

describe('the official conformance suite against the Prolog fixture', () => {
  it('passes all three runs with no failing scored scenario', { timeout: 300_000 }, async () => {
    const { code, output } = await runConformance();
    const totals = [
      ...output.matchAll(/^conformance (\S+): (PASS|FAIL) — Total: (\d+) passed, (\d+) failed/gm),
    ].map(([, run, verdict, passed, failed]) => ({
      run,
      verdict,
      passed: Number(passed),
      failed: Number(failed),
    }));
    console.log(
      `Prolog fixture:\n${totals.map((t) => `${t.run}: ${t.passed} passed, ${t.failed} failed`).join('\n')}`,
    );
    expect(totals.map((total) => total.run).sort()).toEqual([
      '2025-06-18',
      '2025-11-25',
      '2026-07-28',
    ]);
    expect(
      totals.filter((total) => total.verdict !== 'PASS'),
      output,
    ).toEqual([]);
    expect(totals.every((total) => total.passed > 0)).toBe(true);
    expect(code, output).toBe(0);
  });
});
