import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';

const run = promisify(execFile);
const appDir = fileURLToPath(new URL('..', import.meta.url));

describe('README', () => {
  it('shows the servers.json that sits beside it', () => {
    const readme = readFileSync(join(appDir, 'README.md'), 'utf8');
    const shown = /```json\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(shown).toBeDefined();
    expect(readFileSync(join(appDir, 'servers.json'), 'utf8')).toBe(shown);
  });

  it('checks its example servers.json: one line per upstream, exit 1 for the one that failed', async () => {
    const failure = await run(process.execPath, ['dist/main.js', 'check', 'servers.json'], {
      cwd: appDir,
      timeout: scaled(60_000),
    }).then(
      () => undefined,
      (error: { code: number; stdout: string }) => error,
    );
    expect(failure?.code).toBe(1);
    // A line per entry as it finishes: the unreachable one, refused at once, comes first.
    const lines = failure?.stdout.trim().split('\n') ?? [];
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^offline: failed: Upstream "offline" could not be reached: /);
    expect(lines[1]).toMatch(
      /^fixture: ok: rondo-conformance-fixture .*: 9 tools, .*\(fixture_test_simple_text, /,
    );
  });
});
