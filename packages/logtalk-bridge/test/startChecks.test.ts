import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';
import { createPrologProvider, PrologProviderError } from '../src/index.js';
import { logSink, makeContext } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'rondo-start-checks-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const MISTAKES = `:- module(mistakes, []).

tools([tool(gone, nowhere, 2), tool(add, add, 3)]).

:- mode(add(+intger, +integer, -integer), one).
add(A, B, C) :- C is A + B.

task_support(add, sometimes).
`;

function write(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

describe('the checks a provider passes before it is served', { timeout: scaled(30_000) }, () => {
  it('throws every problem at once, each one line at its clause', async () => {
    const path = write('mistakes.pl', MISTAKES);
    const failure = await createPrologProvider({
      files: [path],
      workers: 1,
      onLog: logSink().onLog,
    }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(PrologProviderError);
    const { lines, problems } = failure as PrologProviderError;
    expect(problems.map((p) => [p.file, p.line])).toEqual([
      [path, 3],
      [path, 5],
      [path, 8],
    ]);
    expect(lines[0]).toMatch(/^.*:3: tool gone names nowhere\/2, which is not defined; expected /);
    expect(lines[1]).toMatch(/:5: mode of add\/3: argument 1 has the unknown type intger; /);
    expect(lines[2]).toBe(
      `${path}:8: task_support(add, sometimes) gives an unknown task support; expected forbidden, optional, required, optional(after_input) or required(after_input)`,
    );
    expect((failure as Error).message).toBe(lines.join('\n'));
  });

  it('with inspectOnly starts anyway: problems() lists them, a call names the missing predicate', async () => {
    const { lines, onLog } = logSink();
    // Without task_support/2, whose wrong value leaves no description to start from.
    const readable = MISTAKES.replace('task_support(add, sometimes).', '');
    const provider = await createPrologProvider({
      files: [write('inspected.pl', readable)],
      workers: 1,
      inspectOnly: true,
      onLog,
    });
    try {
      expect(await provider.problems()).toHaveLength(2);
      const outcome = await provider.callTool!('gone', { arg1: 'a', arg2: 'b' }, makeContext());
      expect(outcome).toEqual({
        kind: 'error',
        text: "the tool's predicate nowhere/2 does not exist",
      });
      // Standard error is its own pipe: the line may arrive just after the answer.
      await vi.waitFor(() =>
        expect(lines.join('\n')).toContain(
          'rondo: tool gone raised error(existence_error(procedure,mistakes:nowhere/2),',
        ),
      );
    } finally {
      await provider.close();
    }
  });
});
