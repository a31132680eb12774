import { describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';
import { describeTotals, runConformance } from '../support/conformanceRun.js';

// Issue 16, done-when 1: the official conformance suite against the fixture served through the
// fetch handler on Bun and Deno (all three runs) and on workerd through miniflare (the modern run:
// a Worker is stateless; legacy sessions there need one place to live, see docs/deploy.md).
const targets = [
  { runtime: 'bun', runs: ['2025-06-18', '2025-11-25', '2026-07-28'] },
  { runtime: 'deno', runs: ['2025-06-18', '2025-11-25', '2026-07-28'] },
  { runtime: 'workerd', runs: ['2026-07-28'] },
];

for (const { runtime, runs } of targets) {
  describe(`the official conformance suite against the fixture on ${runtime}`, () => {
    it(
      `passes ${runs.join(', ')} with no failing scored scenario`,
      { timeout: scaled(300_000) },
      async () => {
        const selection = runtime === 'workerd' ? runs.flatMap((run) => ['--run', run]) : [];
        const { code, output, totals } = await runConformance(['--fixture', runtime, ...selection]);
        console.log(`${runtime} fixture:\n${describeTotals(totals)}`);
        expect(totals.map((total) => total.run).sort()).toEqual(runs);
        expect(
          totals.filter((total) => total.verdict !== 'PASS'),
          output,
        ).toEqual([]);
        expect(totals.every((total) => total.passed > 0)).toBe(true);
        // Unscored checks too: on workerd the Tasks scenarios pass only if the handler hands a
        // task's run to ctx.waitUntil, which a failing scenario there would not show otherwise.
        if (runtime === 'workerd')
          expect(
            totals.map(({ run, failed }) => ({ run, failed })),
            output,
          ).toEqual(runs.map((run) => ({ run, failed: 0 })));
        expect(code, output).toBe(0);
      },
    );
  });
}
