import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { scaled } from '../../../test/support/timeFactor.js';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));

/** Every ```ts block of a Markdown file. */
function typeScriptBlocks(path: string): string[] {
  return [...readFileSync(path, 'utf8').matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);
}

/**
 * Type-checks code blocks as strict ES modules at the repository root, where the workspace's
 * packages resolve as a user's installed ones would; returns the diagnostics.
 */
function typeErrors(blocks: string[]): string[] {
  const files = blocks.map((code, index) => {
    const file = join(repoRoot, `.auth-docs-example-${process.pid}-${index}.ts`);
    writeFileSync(file, `${code}\nexport {};\n`);
    return file;
  });
  try {
    const program = ts.createProgram(files, {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      types: ['node'],
      skipLibCheck: true,
    });
    return ts
      .getPreEmitDiagnostics(program)
      .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  } finally {
    for (const file of files) rmSync(file, { force: true });
  }
}

describe('the examples of docs/auth.md and the README', () => {
  it(
    'type-check against the packages as they are',
    () => {
      const blocks = [
        ...typeScriptBlocks(join(repoRoot, 'docs/auth.md')),
        // The README's first block runs in readme.test.ts; the others are checked here.
        ...typeScriptBlocks(join(repoRoot, 'packages/auth/README.md')).slice(1),
      ];
      expect(blocks.length).toBe(6);
      expect(typeErrors(blocks)).toEqual([]);
    },
    scaled(60_000),
  );
});
