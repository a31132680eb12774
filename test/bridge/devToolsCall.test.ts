import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';
import { BIRDS_PL, requireBuiltHost } from './support/paths.js';

// Issue 29: `rondo-logtalk call FILE` without a tool lists what there is to call, and
// `call --help` is the help, not a usage mistake.

function host(...args: string[]) {
  return spawnSync(process.execPath, [requireBuiltHost(), ...args], {
    encoding: 'utf8',
    timeout: 60_000,
    env: { PATH: process.env.PATH ?? '' },
  });
}

describe(
  'rondo-logtalk call, for the user who does not know the tools yet',
  { timeout: scaled(90_000) },
  () => {
    it('lists the tools of FILE when no tool is named, and exits 0', () => {
      const run = host('call', BIRDS_PL);
      expect(run.status).toBe(0);
      expect(run.stdout.trim().split('\n')).toEqual([
        'identify_bird: Asks about a bird you saw and names it.',
      ]);
      expect(run.stderr).toContain("rondo-logtalk call FILE TOOL '{json arguments}'");
    });

    it('prints the help for call --help', () => {
      const run = host('call', '--help');
      expect(run.status).toBe(0);
      expect(run.stdout).toContain('call FILE          list the tools FILE offers');
      expect(run.stderr).toBe('');
    });
  },
);

const dir = mkdtempSync(join(tmpdir(), 'rondo-check-helper-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('rondo-logtalk check, on a tool body', { timeout: scaled(90_000) }, () => {
  it('reports a helper the tool calls that is not defined, at the clause, and nothing defined or built in', () => {
    const file = join(dir, 'helper.pl');
    writeFileSync(
      file,
      [
        ':- module(helper, []).',
        'tools([tool(add, add, 3), tool(ok, ok, 1)]).',
        ':- mode(add(+integer, +integer, -integer), one).',
        'add(A, B, Sum) :-',
        '    findall(X, member(X, [A, B]), Xs),',
        '    sum_helper(Xs, Sum).',
        ':- mode(ok(-atom), one).',
        "ok(Y) :- format(atom(Y), '~w', [yes]), defined_here(1, _).",
        'defined_here(X, Y) :- Y is X + 1.',
        '',
      ].join('\n'),
    );
    const run = host('check', file);
    expect(run.status).toBe(1);
    expect(run.stdout.trim().split('\n')).toEqual([
      `${file}:4: tool add: add/3 calls sum_helper/2, which is not defined; expected a predicate of the provider or of a library it loads`,
    ]);
  });
});
