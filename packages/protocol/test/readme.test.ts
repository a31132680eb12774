import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';
import { transpileExample } from '@rondo/test-support/readmeExample';
import { decodeVocabulary, type VocabularyValue } from '../src/index.js';
import { vocabularyForms } from './vocabularyArbitraries.js';

/**
 * The README cannot rot: its first TypeScript block is type-checked and run against the built
 * package (as a user would import it), its printed output must match the block that follows, and
 * every row of the vocabulary table must decode. Run `pnpm build` first.
 */

const packageDir = fileURLToPath(new URL('../', import.meta.url));
const readme = readFileSync(path.join(packageDir, 'README.md'), 'utf8');

/** The fenced code blocks of the README, in order, with their language. */
function codeBlocks(markdown: string): { language: string; code: string }[] {
  return [...markdown.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((match) => ({
    language: match[1] ?? '',
    code: match[2] ?? '',
  }));
}

/**
 * Type-checks a module the way a user's NodeNext project would, returning the diagnostics. Only
 * `console` is declared besides ES2022: loading all of `@types/node` would take seconds.
 */
function typeErrors(file: string): string[] {
  const globals = path.join(path.dirname(file), 'globals.d.ts');
  writeFileSync(globals, 'declare const console: { log(...values: unknown[]): void };\n');
  const program = ts.createProgram([file, globals], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    lib: ['lib.es2022.d.ts'],
    types: [],
    strict: true,
    noEmit: true,
    skipLibCheck: true,
  });
  return ts
    .getPreEmitDiagnostics(program)
    .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
}

describe('README', () => {
  const blocks = codeBlocks(readme);
  const exampleIndex = blocks.findIndex((block) => block.language === 'ts');
  const example = blocks[exampleIndex];
  const printed = blocks[exampleIndex + 1];
  let workDir = '';

  beforeAll(() => {
    // Inside the package folder, so that `@rondo/protocol` resolves to this package's own exports.
    workDir = mkdtempSync(path.join(packageDir, '.readme-'));
  });
  afterAll(() => {
    if (workDir !== '') rmSync(workDir, { recursive: true, force: true });
  });

  it('has a TypeScript example followed by its output', () => {
    expect(example?.code).toContain("from '@rondo/protocol'");
    expect(printed?.language).toBe('text');
  });

  it(
    'runs its example against the built package and prints what it says',
    { timeout: scaled(60_000) },
    () => {
      const built = path.join(packageDir, 'dist', 'index.js');
      expect(existsSync(built), `${built} is missing: run pnpm build first`).toBe(true);
      const source = path.join(workDir, 'example.mts');
      writeFileSync(source, example!.code);
      expect(typeErrors(source)).toEqual([]);

      const outputText = transpileExample(example!.code);
      const script = path.join(workDir, 'example.mjs');
      writeFileSync(script, outputText);
      const stdout = execFileSync(process.execPath, [script], { cwd: workDir, encoding: 'utf8' });
      expect(stdout.trim()).toBe(printed!.code.trim());
    },
  );

  it('shows a JSON example of every vocabulary form, and each one decodes', () => {
    const bodies = new Set(['form_elicitation', 'url_elicitation', 'sampling', 'roots']);
    const rows = [...readme.matchAll(/^\|[^|]+\|\s*`(\{"kind":[^`]+)`\s*\|/gm)];
    const kinds = rows.map((row) => {
      const value = JSON.parse(row[1]!) as VocabularyValue & { kind: string };
      const wrapped = bodies.has(value.kind)
        ? { kind: 'input_request', key: 'k', request: value }
        : value;
      expect(decodeVocabulary(wrapped)).toEqual(wrapped);
      return value.kind;
    });
    expect(kinds.sort()).toEqual(Object.keys(vocabularyForms).sort());
  });
});
