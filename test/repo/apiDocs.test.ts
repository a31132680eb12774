import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';

const repoRoot = join(import.meta.dirname, '..', '..');

// `pnpm docs:api` generates the API reference from the doc comments (TypeDoc, typedoc.json). Its
// link validation is an error here, so a `{@link}` to something that is not exported, or gone,
// fails CI instead of shipping a dead link.
describe('the API reference', () => {
  it(
    'generates from the doc comments of every package with no broken link or warning',
    async () => {
      const out = mkdtempSync(join(tmpdir(), 'rondo-api-'));
      try {
        const { stdout, stderr } = await promisify(execFile)(
          'pnpm',
          ['exec', 'typedoc', '--out', out],
          { cwd: repoRoot, timeout: scaled(280_000) },
        ).catch((failure: { stdout?: string; stderr?: string; message: string }) => {
          throw new Error(
            `typedoc failed:\n${failure.stdout ?? ''}${failure.stderr ?? failure.message}`,
          );
        });
        expect(`${stdout}${stderr}`).not.toMatch(/\[warning\]|\[error\]/);
        expect(existsSync(join(out, 'index.html'))).toBe(true);
        // One page per package, and the facade's entry point among the functions.
        expect(readdirSync(join(out, 'modules'))).toEqual(
          expect.arrayContaining(['_rondo_server.html', '_rondo_core.html', 'create-rondo.html']),
        );
        expect(readdirSync(join(out, 'functions'))).toContain('_rondo_server.createServer.html');
      } finally {
        rmSync(out, { recursive: true, force: true });
      }
    },
    scaled(300_000),
  );
});
