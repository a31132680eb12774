import { describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';
import { describeTotals, runConformance } from '../support/conformanceRun.js';

// Issue 26, done-when 2, and issue 40, done-when 7: the official conformance suite's three server
// runs against rondo-gateway fronting the conformance fixture over stdio, with its tool names
// unprefixed (one upstream, an empty namespace) and no `era` key, so the default mirroring serves
// each caller in its own era (apps/gateway/fixture/conformance.json). The three runs side by side,
// as for the other fixtures, each against a gateway of its own. No check fails in any run, the
// unscored tasks-* scenarios of 2026-07-28 included: the fixture's tasks pass through the gateway
// (packages/proxy: withPassThrough, PassedTasks).
const RUNS = ['2025-11-25', '2026-07-28', '2025-06-18'];

describe('the official conformance suite against the fixture behind rondo-gateway', () => {
  it('passes all three runs with no failing check', { timeout: scaled(300_000) }, async () => {
    const { code, output, totals } = await runConformance(['--fixture', 'gateway']);
    console.log(`gateway fixture:\n${describeTotals(totals)}`);
    expect(totals.map((total) => total.run).sort()).toEqual([...RUNS].sort());
    for (const total of totals) {
      expect(total.verdict, `${total.run}\n${output}`).toBe('PASS');
      expect(total.passed, total.run).toBeGreaterThan(0);
      expect(total.failed, `${total.run}\n${output}`).toBe(0);
    }
    expect(code, output).toBe(0);
  });
});
