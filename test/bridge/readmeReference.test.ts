import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  createPrologProvider,
  PROLOG_DIR,
  PrologProviderError,
  type PrologProvider,
} from '@rondo/logtalk-bridge';
import { afterAll, describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';
import { requireBuiltHost } from './support/paths.js';

// Issue 19: the bridge README's reference (descriptor shapes, the mode-type table, the argument
// pairs) is the code's, checked against a real provider in a real swipl.

const README = readFileSync(
  fileURLToPath(new URL('../../packages/logtalk-bridge/README.md', import.meta.url)),
  'utf8',
);
const dir = mkdtempSync(join(tmpdir(), 'rondo-readme-reference-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The README section under `### title`, up to the next heading. */
function section(title: string): string {
  const heading = `\n### ${title}\n`;
  const at = README.indexOf(heading);
  if (at < 0) throw new Error(`the bridge README has no section "${title}"`);
  const rest = README.slice(at + heading.length);
  const end = rest.search(/\n#{2,3} /);
  return end < 0 ? rest : rest.slice(0, end);
}

/** The rows of the mode-type table: a mode type and the JSON Schema type it advertises. */
function modeTypeRows(): { type: string; json: string }[] {
  return section('Mode types and JSON Schema')
    .split('\n')
    .flatMap((line) => {
      const row = /^\| `([^`]+)` +\| `([^`]+)` +\|$/.exec(line);
      return row ? [{ type: row[1]!, json: row[2]! }] : [];
    });
}

function write(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

async function start(path: string): Promise<PrologProvider> {
  return createPrologProvider({ files: [path], workers: 1, onLog: () => {} });
}

describe('the bridge README reference', { timeout: scaled(30_000) }, () => {
  it('maps each mode type of its table to the JSON Schema type the bridge infers', async () => {
    const rows = modeTypeRows();
    expect(rows.length).toBeGreaterThan(20);
    const names = rows.map((_, index) => `'a${index}'`);
    const provider = await start(
      write(
        'types.pl',
        `:- module(types, []).
tools([tool(all, all, ${rows.length})]).
:- mode(all(${rows.map((row) => `+${row.type}`).join(', ')}), one).
:- info(all/${rows.length}, [argnames is [${names.join(', ')}]]).
all(${rows.map(() => '_').join(', ')}).
`,
      ),
    );
    try {
      const [tool] = await provider.tools!();
      const properties = tool!.inputSchema.properties as Record<string, { type: string }>;
      expect(rows.map((row, index) => [row.type, properties[`a${index}`]?.type])).toEqual(
        rows.map((row) => [row.type, row.json]),
      );
    } finally {
      await provider.close();
    }
  });

  it('lists exactly the types the bridge knows, in its order', async () => {
    const failure = await start(
      write(
        'unknown.pl',
        ':- module(unknown, []).\ntools([tool(t, t, 1)]).\n:- mode(t(+nosuchtype), one).\nt(_).\n',
      ),
    ).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(PrologProviderError);
    const known = /expected one of (.*)$/.exec((failure as Error).message)?.[1] ?? '';
    // Split at the commas between types, not at the one inside pair(K, V).
    expect(known.split(/, (?![^(]*\))/)).toEqual(modeTypeRows().map((row) => row.type));
  });

  it('shows the argument pairs a tool_call/3 hook receives', async () => {
    const text = section('How arguments reach the predicate');
    const json = /The arguments\s+`(\{[^`]+\})`/.exec(text)?.[1];
    const pairs = /```prolog\n([\s\S]*?)\n```/.exec(text)?.[1];
    expect(json && pairs, 'the example arguments and their pairs').toBeTruthy();
    const path = write(
      'pairs.pl',
      `:- module(argument_pairs, []).
tools([tool(show, show, 0)]).
input_schema(show, {type-object}).
tool_call(show, Args, text(T)) :- ( Args == ${pairs} -> T = same ; format(atom(T), '~q', [Args]) ).
show.
`,
    );
    // Called the way a user tries a tool: rondo-logtalk call, through the server's own pipeline.
    const run = spawnSync(process.execPath, [requireBuiltHost(), 'call', path, 'show', json!], {
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(JSON.parse(run.stdout), run.stderr).toEqual({
      content: [{ type: 'text', text: 'same' }],
    });
  });

  it('names every hook the bridge reads in its descriptor table', () => {
    const sources = readdirSync(PROLOG_DIR)
      .filter((name) => name.endsWith('.pl'))
      .map((name) => readFileSync(join(PROLOG_DIR, name), 'utf8'))
      .join('\n');
    const hooks = new Set(
      [
        ...sources.matchAll(/\b(?:hook|hook_defined|hook_answers|list_hook|with_icons)\((\w+)\(/g),
      ].map((match) => match[1]!),
    );
    expect(hooks.size).toBeGreaterThan(15);
    const table = README.slice(
      README.indexOf('## Descriptors and hooks'),
      README.indexOf('### Mode types'),
    );
    for (const hook of hooks) expect(table, hook).toContain(`\`${hook}(`);
  });
});
