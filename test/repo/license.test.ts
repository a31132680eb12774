import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';
import { publishablePackages, repoRoot } from '../release/packedPackages.js';

const license = (dir: string) => readFileSync(join(dir, 'LICENSE'), 'utf8');

// Every package says "MIT"; the licence text itself must travel with the code users install.
describe('the MIT licence (issue 29)', { timeout: scaled(600_000) }, () => {
  it('is at the root of the repository', () => {
    expect(license(repoRoot)).toMatch(/^MIT License\n/);
  });

  it.each(publishablePackages({ withApps: true }))(
    '$name carries it and names no repository that does not exist',
    ({ dir }) => {
      expect(existsSync(join(dir, 'LICENSE'))).toBe(true);
      expect(license(dir)).toBe(license(repoRoot));
      const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
        license?: string;
        repository?: unknown;
      };
      expect(manifest.license).toBe('MIT');
      expect(manifest.repository).toBeUndefined();
      // That the file is in the packed tarball is checked where every package is packed
      // (test/release/pack.test.ts), not by packing each once more here.
    },
  );

  it('docs/install.md names no invented repository URL', () => {
    expect(readFileSync(join(repoRoot, 'docs', 'install.md'), 'utf8')).not.toMatch(
      /github\.com\/rondo-mcp/,
    );
  });
});
