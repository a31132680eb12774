import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RequestTimeoutError } from '@rondo/client';
import { ConfigurationError, MountConflictError } from '@rondo/core';
import { PrologBusyError } from '@rondo/logtalk-bridge';
import { McpError, RondoError } from '@rondo/protocol';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// One error base (issue 24): every local error class of the packages descends from RondoError and
// names its kind with a stable `code` of its own, `<package>.<kind>`. The wire's McpError keeps its
// numeric JSON-RPC code; create-rondo, a CLI with no dependencies, keeps its two usage errors local.

const root = fileURLToPath(new URL('../..', import.meta.url));
const EXEMPT = new Set(['McpError', 'RondoError']);
const EXEMPT_PACKAGES = new Set(['create-rondo']);

interface ErrorClass {
  name: string;
  base: string;
  abstract: boolean;
  code: string | undefined;
  where: string;
}

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return sources(path);
    return entry.endsWith('.ts') && !entry.endsWith('.d.ts') ? [path] : [];
  });
}

function errorClasses(): ErrorClass[] {
  const found: ErrorClass[] = [];
  const packages = join(root, 'packages');
  for (const pkg of readdirSync(packages)) {
    const src = join(packages, pkg, 'src');
    if (EXEMPT_PACKAGES.has(pkg) || !statSync(src, { throwIfNoEntry: false })?.isDirectory())
      continue;
    for (const file of sources(src)) {
      const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
      for (const node of source.statements) {
        if (!ts.isClassDeclaration(node) || !node.name?.text.endsWith('Error')) continue;
        const base = node.heritageClauses?.[0]?.types[0]?.expression.getText(source) ?? '';
        const codeMember = node.members.find(
          (member) => ts.isPropertyDeclaration(member) && member.name.getText(source) === 'code',
        ) as ts.PropertyDeclaration | undefined;
        const initializer = codeMember?.initializer;
        found.push({
          name: node.name.text,
          base,
          abstract: node.modifiers?.some((m) => m.kind === ts.SyntaxKind.AbstractKeyword) ?? false,
          code: initializer && ts.isStringLiteral(initializer) ? initializer.text : undefined,
          where: `${relative(root, file)}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`,
        });
      }
    }
  }
  return found;
}

describe('one error base with stable codes', () => {
  const classes = errorClasses().filter((found) => !EXEMPT.has(found.name));
  const byName = new Map(classes.map((found) => [found.name, found]));

  it('finds the error classes of the packages', () => {
    expect(classes.length).toBeGreaterThan(40);
  });

  it('derives every local error class from RondoError', () => {
    const strays = classes.filter((found) => {
      let base = found.base;
      for (let hops = 0; base !== 'RondoError' && hops < 10; hops += 1) {
        const parent = byName.get(base);
        if (!parent) return true;
        base = parent.base;
      }
      return base !== 'RondoError';
    });
    expect(strays.map((found) => `${found.name} (${found.where})`)).toEqual([]);
  });

  it('gives every concrete error class a code of its own, <package>.<kind>', () => {
    const concrete = classes.filter((found) => !found.abstract);
    expect(
      concrete.filter((found) => found.code === undefined).map((found) => found.where),
    ).toEqual([]);
    const codes = concrete.map((found) => found.code!);
    expect(new Set(codes).size).toBe(codes.length);
    for (const code of codes) expect(code).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*\.[a-z]+(-[a-z]+)*$/);
  });

  it('carries the code on instances, subclasses their own', () => {
    const configuration = new ConfigurationError('bad');
    expect(configuration).toBeInstanceOf(RondoError);
    expect(configuration.code).toBe('core.configuration');
    const origin = { name: 'get', server: 'weather' };
    expect(new MountConflictError('tool', 'get', origin, origin).code).toBe('core.mount-conflict');
    expect(new RequestTimeoutError('tools/call', 10).code).toBe('client.request-timeout');
    expect(new PrologBusyError(4).code).toBe('bridge.busy');
    expect(new McpError(-32602, 'bad params')).not.toBeInstanceOf(RondoError);
  });
});
