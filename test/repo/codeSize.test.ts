import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// The house size rules (STYLE.md: files under ~400 lines, classes under 250, functions under ~80),
// checked on the sources of every package and app (not on test code: test/ folders and the private
// @rondo/test-support).

const root = fileURLToPath(new URL('../..', import.meta.url));
const MAX_FUNCTION_LINES = 80;
const MAX_FILE_LINES = 400;
const MAX_CLASS_LINES = 250;

/**
 * Offenders in sources being rewritten elsewhere, keyed `file#function`, `file#class Name` or
 * `file` for a whole file. Empty: keep it so. An entry that no longer offends fails the last
 * test, so the list can only shrink.
 */
const TEMPORARY_SIZE_ALLOW_LIST: ReadonlySet<string> = new Set<string>([]);

type FunctionNode =
  ts.FunctionDeclaration | ts.MethodDeclaration | ts.ArrowFunction | ts.FunctionExpression;

interface Offender {
  /** `file#function`, `file#class Name`, or `file` for a long file. */
  key: string;
  /** `file:line`, for the message. */
  where: string;
  lines: number;
}

function sourceFiles(): string[] {
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir).sort()) {
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) walk(path);
      else if (entry.endsWith('.ts') && !entry.endsWith('.d.ts')) found.push(path);
    }
  };
  for (const group of ['packages', 'apps']) {
    for (const folder of readdirSync(join(root, group)).sort()) {
      // Test code, like every test/ folder: suites written as one describe per contract.
      if (group === 'packages' && folder === 'test-support') continue;
      const src = join(root, group, folder, 'src');
      if (statSync(join(root, group, folder)).isDirectory() && exists(src)) walk(src);
    }
  }
  return found;
}

function exists(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function isFunction(node: ts.Node): node is FunctionNode {
  return (
    ts.isFunctionDeclaration(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isArrowFunction(node) ||
    ts.isFunctionExpression(node)
  );
}

/** A function's name: its own, or that of the variable or property it is assigned to. */
function nameOf(node: FunctionNode, source: ts.SourceFile, line: number): string {
  const own = node.name && !ts.isComputedPropertyName(node.name) ? node.name.getText(source) : '';
  if (own) return own;
  const parent = node.parent;
  if (
    (ts.isVariableDeclaration(parent) ||
      ts.isPropertyDeclaration(parent) ||
      ts.isPropertyAssignment(parent)) &&
    !ts.isComputedPropertyName(parent.name)
  )
    return parent.name.getText(source);
  return `<anonymous at line ${line}>`;
}

/** The lines a node spans, first and last included, and the line it starts on. */
function span(node: ts.Node, source: ts.SourceFile): { start: number; lines: number } {
  const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
  const end = source.getLineAndCharacterOfPosition(node.getEnd()).line + 1;
  return { start, lines: end - start + 1 };
}

function offenders(): { functions: Offender[]; classes: Offender[]; files: Offender[] } {
  const functions: Offender[] = [];
  const classes: Offender[] = [];
  const files: Offender[] = [];
  for (const path of sourceFiles()) {
    const file = relative(root, path);
    const text = readFileSync(path, 'utf8');
    const fileLines = text.endsWith('\n') ? text.split('\n').length - 1 : text.split('\n').length;
    if (fileLines > MAX_FILE_LINES) files.push({ key: file, where: `${file}:1`, lines: fileLines });
    const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      if (ts.isClassDeclaration(node) || ts.isClassExpression(node)) {
        const { start, lines } = span(node, source);
        const name = node.name?.text ?? `<anonymous at line ${start}>`;
        if (lines > MAX_CLASS_LINES)
          classes.push({ key: `${file}#class ${name}`, where: `${file}:${start} ${name}`, lines });
      }
      if (isFunction(node)) {
        const { start, lines } = span(node, source);
        if (lines > MAX_FUNCTION_LINES) {
          const name = nameOf(node, source, start);
          functions.push({ key: `${file}#${name}`, where: `${file}:${start} ${name}`, lines });
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return { functions, classes, files };
}

const found = offenders();
const report = (list: Offender[]) =>
  list.map((offender) => `${offender.where} (${offender.lines} lines)`).join('\n');

describe('source size rules', () => {
  it(`has no source function over ${MAX_FUNCTION_LINES} lines`, () => {
    const breaking = found.functions.filter((o) => !TEMPORARY_SIZE_ALLOW_LIST.has(o.key));
    expect(breaking, `functions to split:\n${report(breaking)}`).toEqual([]);
  });

  it(`has no source class over ${MAX_CLASS_LINES} lines`, () => {
    const breaking = found.classes.filter((o) => !TEMPORARY_SIZE_ALLOW_LIST.has(o.key));
    expect(breaking, `classes to split:\n${report(breaking)}`).toEqual([]);
  });

  it(`has no source file over ${MAX_FILE_LINES} lines`, () => {
    const breaking = found.files.filter((o) => !TEMPORARY_SIZE_ALLOW_LIST.has(o.key));
    expect(breaking, `files to split:\n${report(breaking)}`).toEqual([]);
  });

  it('allows, temporarily, only offenders that still offend', () => {
    const current = new Set(
      [...found.functions, ...found.classes, ...found.files].map((o) => o.key),
    );
    const stale = [...TEMPORARY_SIZE_ALLOW_LIST].filter((key) => !current.has(key));
    expect(stale, 'no longer over the limit: remove from TEMPORARY_SIZE_ALLOW_LIST').toEqual([]);
  });
});
