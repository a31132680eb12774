import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';
import { createPrologProvider, PrologProviderError } from '../src/index.js';
import { logSink } from './helpers.js';

// Issue 29: one tool with a name or schema clients reject made them reject the whole tools/list.
// A Prolog provider with one is refused at load, one `file:line` line per mistake.

const dir = mkdtempSync(join(tmpdir(), 'rondo-tool-rules-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const BAD_TOOLS = `:- module(bad_tools, []).

tools([tool('bad name!', hello, 0), tool(shout, shout, 1)]).

:- mode(hello, one).
hello.

input_schema(shout, {type-string}).
shout(_).
`;

describe(
  'issue 29: tools clients would reject are refused when a Prolog provider loads',
  { timeout: scaled(30_000) },
  () => {
    it('names the tool and the rule, at the clause that declares it', async () => {
      const path = join(dir, 'bad_tools.pl');
      writeFileSync(path, BAD_TOOLS);
      const failure = await createPrologProvider({
        files: [path],
        workers: 1,
        onLog: logSink().onLog,
      }).catch((e: unknown) => e);
      expect(failure).toBeInstanceOf(PrologProviderError);
      const { lines } = failure as PrologProviderError;
      expect(lines).toEqual([
        `${path}:3: tool "bad name!" has a name clients reject; expected a name of 1 to 128 characters, each an ASCII letter, a digit, "_", "-" or "."`,
        `${path}:8: tool shout: inputSchema has type "string"; expected an object schema ({type-object, properties-{...}}), as the inputSchema of every tool is`,
      ]);
    });
  },
);
