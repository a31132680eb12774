import { runtimeOf } from '@rondo/core/internal';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';
import { createServer, type RondoServer } from '@rondo/core';
import { createPrologProvider, type PrologProvider } from '../src/index.js';
import { logtalkHomeForTests } from '@rondo/test-support/logtalkHome';
import { fixture, logSink, makeContext } from './helpers.js';

logtalkHomeForTests();

/** What the `measure` tool reports of its worker. */
interface Measures {
  depth: number;
  choicePoints: number;
  atoms: number;
  rssKb: number;
}

const CALLS = 20_000;
const IN_FLIGHT = 64;
// Bounds the docs/limits.md row states: a worker that kept each call would grow by one frame and
// at least one atom per call, and by 20,000 x 2 KiB = 39 MiB of strings.
const ATOM_GROWTH = 1_000;
const RSS_GROWTH_KB = 16 * 1024;

for (const flavour of ['module', 'object'] as const) {
  describe(
    `a worker serving ${CALLS} calls with unique strings (${flavour})`,
    { timeout: scaled(600_000) },
    () => {
      let provider: PrologProvider;
      let server: RondoServer;
      beforeAll(async () => {
        provider = await createPrologProvider({
          files: [fixture(flavour === 'module' ? 'space.pl' : 'space.lgt')],
          workers: 1,
          onLog: logSink().onLog,
        });
        server = createServer({ name: 'space', version: '1.0.0', log: () => undefined });
        server.provider(provider);
        await runtimeOf(server).ready();
      });
      afterAll(() => provider?.close());

      const call = (name: string, args: Record<string, unknown>) =>
        runtimeOf(server).callTool(name, args, makeContext());

      const measure = async (): Promise<Measures> => {
        const outcome = await call('measure', {});
        const result = (outcome as { result: { kind: string; structured?: Measures } }).result;
        expect(result.kind).toBe('structured');
        return result.structured!;
      };

      /** Runs `count` calls from `from` on, IN_FLIGHT at a time, each with a string of its own. */
      const callMany = async (from: number, count: number): Promise<void> => {
        let next = from;
        const end = from + count;
        const lane = async (): Promise<void> => {
          while (next < end) {
            const n = next++;
            // Half the calls go through the string-typed argument, half through the hook, whose
            // keys and values are the client's own (new atoms if anything keeps them).
            const unique = `${n}:${'x'.repeat(2048)}`;
            if (n % 2 === 0) {
              const outcome = await call('length_of', { text: unique });
              expect(outcome).toMatchObject({ result: { structured: { length: unique.length } } });
            } else {
              const outcome = await call('keys_of', { [`key${n}`]: unique, other: `v${n}` });
              expect(outcome).toMatchObject({ result: { structured: { count: 2 } } });
            }
          }
        };
        await Promise.all(Array.from({ length: IN_FLIGHT }, lane));
      };

      it('keeps its frame depth, atom count and resident size', async () => {
        const [worker] = provider.workerIds();
        await callMany(0, 2_000); // warm: tables, buffers and the atom GC margin settle
        const before = await measure();
        await callMany(2_000, CALLS);
        const after = await measure();
        expect(provider.workerIds()).toEqual([worker]); // one worker served them all
        expect(after.depth).toBe(before.depth);
        expect(after.choicePoints).toBe(before.choicePoints);
        expect(after.atoms - before.atoms).toBeLessThan(ATOM_GROWTH);
        expect(after.rssKb - before.rssKb).toBeLessThan(RSS_GROWTH_KB);
      });
    },
  );
}

describe(
  'a +string argument arrives as an SWI-Prolog string (issue 39)',
  { timeout: scaled(60_000) },
  () => {
    let provider: PrologProvider;
    beforeAll(async () => {
      provider = await createPrologProvider({ files: [fixture('space.pl')], workers: 1 });
    });
    afterAll(() => provider?.close());

    it('as a string, whatever it holds; a +atom one as an atom', async () => {
      const text = 'quote " apostrophe \' backslash \\ newline \n tab \t nul \u0000 ünïcödé 🐦';
      const outcome = await provider.callTool!('echo_text', { text, name: 'plain' }, makeContext());
      expect(outcome).toMatchObject({
        kind: 'structured',
        structured: { echoed: text, kinds: 'string,atom' },
      });
    });
  },
);
