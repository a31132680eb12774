import { describe, expect, it } from 'vitest';
import { createPrologProvider, type PrologProvider } from '../src/index.js';
import { fixture, logSink, makeContext } from './helpers.js';
import { scaled } from '@rondo/test-support/timeFactor';

// A worker lost to one call (halt/0, a deadline) held other calls written behind it: those never
// started, so they go to another worker and only the guilty call fails.
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function withPool(
  options: { workers: number; timeoutMs?: number },
  body: (pool: PrologProvider, gone: () => string[]) => Promise<void>,
): Promise<void> {
  const log = logSink();
  const pool = await createPrologProvider({
    files: [fixture('pool.pl')],
    onLog: log.onLog,
    ...options,
  });
  try {
    await body(pool, () => log.lines.filter((line) => /is gone/.test(line)));
  } finally {
    await pool.close();
  }
}

const run = (pool: PrologProvider, name: string) => pool.callTool!(name, {}, makeContext());

describe('calls held by a worker another call kills', { timeout: scaled(60_000) }, () => {
  it('answers 50 innocent calls interleaved with a halting one; only the halting call fails', async () => {
    await withPool({ workers: 2 }, async (pool, gone) => {
      const names = Array.from({ length: 51 }, (_, i) => (i === 25 ? 'halt' : 'quick'));
      const outcomes = await Promise.allSettled(names.map((name) => run(pool, name)));
      const halted = outcomes[25]!;
      expect(halted.status).toBe('rejected');
      expect(String((halted as PromiseRejectedResult).reason)).toMatch(
        /exited with code 0 during the call/,
      );
      const innocent = outcomes.filter((_, i) => i !== 25);
      expect(innocent.filter((o) => o.status === 'rejected')).toEqual([]);
      for (const o of innocent)
        expect((o as PromiseFulfilledResult<unknown>).value).toEqual({
          kind: 'text',
          text: 'quick',
        });
      // The halting call may have run, so it was not run again: one worker was lost, not two.
      await sleep(300);
      expect(gone()).toHaveLength(1);
    });
  });

  it('requeues the calls written behind one that ran past its deadline', async () => {
    const deadlineMs = scaled(1500);
    await withPool({ workers: 1, timeoutMs: deadlineMs }, async (pool) => {
      const outcomes = await Promise.allSettled([
        run(pool, 'loop'),
        run(pool, 'quick'),
        run(pool, 'quick'),
      ]);
      expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'fulfilled', 'fulfilled']);
      expect(String((outcomes[0] as PromiseRejectedResult).reason)).toContain(
        `deadline of ${deadlineMs} ms`,
      );
    });
  });
});
