import { execFile } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const appDir = fileURLToPath(new URL('..', import.meta.url));

describe('README', () => {
  it('checks its example configuration: one line per upstream, exit 1 for the one that failed', async () => {
    const readme = readFileSync(join(appDir, 'README.md'), 'utf8');
    const config = /```json\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
    const file = join(appDir, `.readme-servers-${process.pid}.json`);
    writeFileSync(file, config);
    try {
      const failure = await run(process.execPath, ['dist/main.js', 'check', file], {
        cwd: appDir,
        timeout: 60_000,
      }).then(
        () => undefined,
        (error: { code: number; stdout: string }) => error,
      );
      expect(failure?.code).toBe(1);
      const lines = failure?.stdout.trim().split('\n') ?? [];
      expect(lines).toHaveLength(2);
      expect(lines[0]).toMatch(
        /^fixture: ok: rondo-conformance-fixture .*: 9 tools, .*\(fixture_test_simple_text, /,
      );
      expect(lines[1]).toMatch(/^offline: failed: Upstream "offline" could not be reached: /);
    } finally {
      rmSync(file, { force: true });
    }
  });
});
