import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../release/packedPackages.js';
import { scaled } from '@rondo/test-support/timeFactor';

const run = promisify(execFile);
const scratch = mkdtempSync(join(tmpdir(), 'rondo-build-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A solution of two composite projects, `base` and `top` (which references base). */
function solution(topSource: string): string {
  const dir = mkdtempSync(join(scratch, 'solution-'));
  const write = (path: string, value: unknown) => {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), typeof value === 'string' ? value : JSON.stringify(value));
  };
  const options = { composite: true, strict: true, outDir: 'dist', rootDir: 'src' };
  write('base/tsconfig.json', { compilerOptions: options });
  write('base/src/index.ts', 'export const base = 1;\n');
  write('top/tsconfig.json', { compilerOptions: options, references: [{ path: '../base' }] });
  write('top/src/index.ts', topSource);
  write('tsconfig.json', { files: [], references: [{ path: 'base' }, { path: 'top' }] });
  return dir;
}

async function build(dir: string) {
  const script = join(repoRoot, 'tooling', 'scripts', 'build.mjs');
  return run(process.execPath, [script, '--project', join(dir, 'tsconfig.json')], {
    timeout: scaled(120_000),
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (failure: { code: number; stdout: string; stderr: string }) => failure,
  );
}

// `pnpm build` (and `pnpm demo`, which builds first) says which package it is building.
describe('tooling/scripts/build.mjs', () => {
  it(
    'prints a line per project as it builds it, then the total',
    async () => {
      const dir = solution('export const top: number = 2;\n');
      const first = await build(dir);
      expect(first.code).toBe(0);
      expect(first.stderr).toMatch(/^build: base\nbuild: top\nbuild: done \(2 built, \d+ s\)\n$/);
      expect(first.stdout).toBe('');
      const again = await build(dir);
      expect(again.stderr).toMatch(/^build: done \(everything up to date, \d+ s\)\n$/);
    },
    scaled(240_000),
  );

  it(
    "passes tsc's errors through and fails",
    async () => {
      const dir = solution("export const top: number = 'two';\n");
      const failed = await build(dir);
      expect(failed.code).not.toBe(0);
      expect(failed.stdout).toMatch(/top\/src\/index\.ts\(1,14\): error TS2322/);
      expect(failed.stderr).toMatch(/build: failed \(2 built, \d+ s\)\n$/);
    },
    scaled(240_000),
  );
});
