import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';
import { publishablePackages, repoRoot } from '../release/packedPackages.js';

const run = promisify(execFile);
const license = (dir: string) => readFileSync(join(dir, 'LICENSE'), 'utf8');

// Every package says "MIT"; the licence text itself must travel with the code users install.
describe('the MIT licence (issue 29)', { timeout: scaled(600_000) }, () => {
  it('is at the root of the repository', () => {
    expect(license(repoRoot)).toMatch(/^MIT License\n/);
  });

  it.each(publishablePackages({ withApps: true }))(
    '$name ships it in its tarball and names no repository that does not exist',
    async ({ dir }) => {
      expect(existsSync(join(dir, 'LICENSE'))).toBe(true);
      expect(license(dir)).toBe(license(repoRoot));
      const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
        license?: string;
        repository?: unknown;
      };
      expect(manifest.license).toBe('MIT');
      expect(manifest.repository).toBeUndefined();
      const { stdout } = await run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
        cwd: dir,
        timeout: 300_000,
      });
      const [packed] = JSON.parse(stdout) as [{ files: { path: string }[] }];
      expect(packed.files.map((file) => file.path)).toContain('LICENSE');
    },
  );

  it('docs/install.md names no invented repository URL', () => {
    expect(readFileSync(join(repoRoot, 'docs', 'install.md'), 'utf8')).not.toMatch(
      /github\.com\/rondo-mcp/,
    );
  });
});
