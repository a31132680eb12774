import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';
import { describeCircles, findImportCircles } from '../../tooling/scripts/importCircles.mjs';

// No package's or app's sources import in a circle, type-only imports included: each file sits on a
// floor below the files that import it (core's contracts/ lowest). The check is
// tooling/scripts/importCircles.mjs (the TypeScript parser; `node tooling/scripts/importCircles.mjs`
// lists the circles); the planted workspaces below prove it finds what it must.

const planted: string[] = [];

/** A workspace in a temp dir holding `files` (paths relative to its root). */
function workspace(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'rondo-circles-'));
  planted.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

afterAll(() => {
  for (const root of planted) rmSync(root, { recursive: true, force: true });
});

describe('import circles', { timeout: scaled(60_000) }, () => {
  it('finds none among the sources of every package and app', () => {
    expect(describeCircles(findImportCircles())).toEqual([]);
  });

  it('finds a circle of type-only imports planted across three files, and names its path', () => {
    const root = workspace({
      'packages/one/src/contract.ts':
        "import type { Runtime } from './runtime.js';\nexport interface Contract { runtime: Runtime }\n",
      'packages/one/src/runtime.ts':
        "import type { Builder } from './builder/index.js';\nexport interface Runtime { builder: Builder }\n",
      'packages/one/src/builder/index.ts':
        "export type Builder = import('../contract.js').Contract;\n",
      'packages/one/src/leaf.ts':
        "import type { Contract } from './contract.js';\nexport type Leaf = Contract;\n",
    });
    const lines = describeCircles(findImportCircles(root), root);
    expect(lines).toEqual([
      '3 files: packages/one/src/builder/index.ts -> packages/one/src/contract.ts -> ' +
        'packages/one/src/runtime.ts -> packages/one/src/builder/index.ts',
    ]);
  });

  it('finds a circle of re-exports in an app, and leaves the imports between packages out', () => {
    const root = workspace({
      'apps/cli/src/a.ts': "export { b } from './b.js';\nexport const a = 1;\n",
      'apps/cli/src/b.ts': "import { a } from './a.js';\nexport const b = a;\n",
      'packages/two/src/index.ts': "import { a } from '@rondo/cli';\nexport const two = a;\n",
    });
    expect(describeCircles(findImportCircles(root), root)).toEqual([
      '2 files: apps/cli/src/a.ts -> apps/cli/src/b.ts -> apps/cli/src/a.ts',
    ]);
  });

  it('finds none once the shared type moves below both files', () => {
    const root = workspace({
      'packages/one/src/contract.ts': 'export interface Contract { id: string }\n',
      'packages/one/src/runtime.ts':
        "import type { Contract } from './contract.js';\nexport interface Runtime { contract: Contract }\n",
      'packages/one/src/builder.ts':
        "import type { Contract } from './contract.js';\nimport type { Runtime } from './runtime.js';\nexport type Builder = [Contract, Runtime];\n",
    });
    expect(findImportCircles(root)).toEqual([]);
  });
});
