import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPrologProvider, PROLOG_DIR, type PrologProvider } from '../src/index.js';
import { fixture, logSink, makeContext } from './helpers.js';

let provider: PrologProvider;

beforeAll(async () => {
  provider = await createPrologProvider({
    files: [fixture('vocab.pl')],
    workers: 1,
    onLog: logSink().onLog,
  });
});
afterAll(() => provider.close());

const echo = async (value: unknown) =>
  (
    (await provider.callTool!('echo', { value } as never, makeContext())) as unknown as {
      structured: unknown;
    }
  ).structured;

function nested(depth: number): unknown {
  let value: unknown = 'bottom';
  for (let i = 0; i < depth; i++) value = i % 2 === 0 ? [value] : { level: value };
  return value;
}

describe('JSON <-> term', () => {
  it('round-trips Unicode exactly: accents, CJK, emoji, escapes and U+2028', async () => {
    const text = 'héllo 世界 😀 \u{1F9EA} "quoted" \\ back\nline\ttab \u0001 \u2028 end';
    expect(await echo({ text, [text]: 'as a key too' })).toEqual({ text, [text]: 'as a key too' });
  });

  it('round-trips strings and keys that look like Prolog syntax: operators, quotes, variables', async () => {
    // ('{}' is left out: in Logtalk's conventions that atom is the empty object.)
    const tricky = ['-', ',', '|', ':-', '.', 'is', '@', "'", "it's", 'X', '_', '[]', '%'];
    const controls = '\u0000 \u0007 \u001f \u007f \\x41\\ \r\n';
    const value = {
      tricky,
      controls,
      negative: [-5, -0.5, -1e-7],
      nested: { '-': -1, '@': null, "'": [true, false, {}], '': '' },
      ...Object.fromEntries(tricky.map((k) => [k, k])),
    };
    expect(await echo(value)).toEqual(value);
  });

  it('gives back the string "{}" through an atom-typed argument as a string, not an empty object', async () => {
    // The atom '{}' is also Logtalk's empty object; an atom-typed output is text all the same.
    for (const text of ['{}', '[]', 'plain']) {
      expect(await provider.callTool!('same', { In: text }, makeContext())).toMatchObject({
        structured: { Out: text },
      });
      expect(await provider.callTool!('twice', { In: text }, makeContext())).toMatchObject({
        structured: { Out: [text, text] },
      });
    }
  });

  it('round-trips floats, large and small exponents', async () => {
    const values = [
      0.1, 0.30000000000000004, 1e21, 1.5e-7, -2.5, 1.7976931348623157e308, 5e-324, 123456789.125,
    ];
    expect(await echo(values)).toEqual(values);
  });

  it('keeps integers up to 2^53 exact, and strings, booleans and null apart', async () => {
    const value = {
      max: Number.MAX_SAFE_INTEGER,
      min: Number.MIN_SAFE_INTEGER,
      t: true,
      f: false,
      n: null,
      s: 'true',
      e: '',
      a: [],
      o: {},
    };
    expect(await echo(value)).toEqual(value);
  });

  it('survives deep nesting (500 levels)', async () => {
    const deep = nested(500);
    expect(await echo(deep)).toEqual(deep);
  });

  it('is exact for big integers on the Prolog side (2^200 in, 2^200 out)', () => {
    const goal = [
      `use_module('${join(PROLOG_DIR, 'rondo_json.pl')}')`,
      'read_term(user_input, T, []), json_text(T, S), write(S), nl',
    ].join(', ');
    // As Node writes a call: a term in the bridge's conventions, read by read_term/3.
    const input =
      "{'n'-1606938044258990275541962092341162602522202993782792835301376,'m'- -12345678901234567890123,'f'-0.1}.\n";
    const out = execFileSync('swipl', ['-q', '-f', 'none', '-g', goal, '-t', 'halt'], { input })
      .toString()
      .trim();
    expect(out).toBe(
      '{"n":1606938044258990275541962092341162602522202993782792835301376,"m":-12345678901234567890123,"f":0.1}',
    );
  });

  it('computes with big integers in Prolog and can return them exactly as text', async () => {
    const result = (await provider.callTool!('big', {}, makeContext())) as unknown as {
      structured: { text: string };
    };
    expect(result.structured.text).toBe((2n ** 200n).toString());
  });
});
