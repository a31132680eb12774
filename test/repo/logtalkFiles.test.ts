import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { LOGTALK_TEST_FILES } from '../../vitest.config.js';
import { repoRoot } from '../release/packedPackages.js';

const run = promisify(execFile);

/** The folder each vitest project's test paths are relative to. */
const projectRoot = (project: string): string =>
  project === 'integration' ? repoRoot : join(repoRoot, 'packages', project);

// A clone without a Logtalk distribution (no LOGTALKHOME, no ../shared/logtalk) leaves the listed
// files out, saying so; a file that needs Logtalk but is missing from the list fails there instead.
describe('the Logtalk-flavour test files', () => {
  it('are all listed in vitest.config.ts, so a clone without Logtalk skips them', async () => {
    const { stdout } = await run('git', ['ls-files', '*.test.ts'], { cwd: repoRoot });
    const needingLogtalk = stdout
      .split('\n')
      .filter(Boolean)
      .filter((file) => /logtalkHomeForTests\(\)/.test(readFileSync(join(repoRoot, file), 'utf8')));
    const listed = Object.entries(LOGTALK_TEST_FILES).flatMap(([project, files]) =>
      files.map((file) => relative(repoRoot, join(projectRoot(project), file))),
    );
    expect(needingLogtalk.length).toBeGreaterThan(5);
    expect(needingLogtalk.filter((file) => !listed.includes(file))).toEqual([]);
  });
});
