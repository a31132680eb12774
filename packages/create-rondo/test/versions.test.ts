import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rangeOf, VERSIONS } from 'create-rondo';

const repoRoot = join(import.meta.dirname, '..', '..', '..');
const versionIn = (path: string): string =>
  (JSON.parse(readFileSync(join(repoRoot, path, 'package.json'), 'utf8')) as { version: string })
    .version;

describe('the versions a scaffold depends on', () => {
  it('are the versions this workspace releases and builds with', () => {
    expect(VERSIONS['@rondo/server']).toBe(versionIn('packages/server'));
    expect(VERSIONS['@rondo/logtalk-host']).toBe(versionIn('apps/logtalk-host'));
    expect(VERSIONS['@rondo/client']).toBe(versionIn('packages/client'));
    for (const name of ['zod', 'typescript', '@types/node'] as const)
      expect(VERSIONS[name], name).toBe(versionIn(`node_modules/${name}`));
    expect(rangeOf('zod')).toBe(`^${VERSIONS.zod}`);
  });
});
