import { execFile } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { scaled } from '@rondo/test-support/timeFactor';
import type { LocalRegistry } from './localRegistry.js';
import { repoRoot } from './packedPackages.js';

const run = promisify(execFile);

/** A clone of the repository in which `pnpm release` ran, and what that release did. */
export interface ReleasedClone {
  dir: string;
  /** What `pnpm release` printed. */
  output: string;
  /** Whether the test gate ran (it writes a marker file beside the clone). */
  gateRan: boolean;
  /** The git tags of the clone after the release. */
  tags: string[];
  /** The subject of the clone's HEAD commit. */
  headSubject: string;
}

/** The changeset this release carries, so there is something to release whatever is pending. */
const TEST_CHANGESET = `---
'@rondo/server': patch
---

A release cut by test/release/registry.test.ts in a clone of the repository.
`;

async function git(dir: string, args: string[]): Promise<string> {
  const { stdout } = await run('git', args, { cwd: dir, maxBuffer: 16 * 1024 * 1024 });
  return stdout;
}

/**
 * Clones the repository's HEAD into `dir` (the working tree's uncommitted changes are not part of
 * a release), installs it from the store and runs `pnpm release --registry <registry>` there, the
 * gate being a command that only leaves a marker (the test command is what runs this).
 */
export async function releaseInClone(dir: string, registry: LocalRegistry): Promise<ReleasedClone> {
  await run('git', ['clone', '--quiet', '--no-hardlinks', repoRoot, dir], { timeout: 120_000 });
  await git(dir, ['config', 'user.email', 'release-test@rondo.invalid']);
  await git(dir, ['config', 'user.name', 'release test']);
  writeFileSync(join(dir, '.changeset', 'release-test.md'), TEST_CHANGESET);
  await git(dir, ['add', '.changeset/release-test.md']);
  await git(dir, ['commit', '--quiet', '-m', 'A changeset to release']);
  await run('pnpm', ['install', '--offline', '--frozen-lockfile'], {
    cwd: dir,
    timeout: 300_000,
  });
  const marker = `${dir}.gate-ran`;
  const released = await run(
    process.execPath,
    [
      join(dir, 'tooling', 'scripts', 'release.mjs'),
      '--registry',
      registry.url,
      '--gate',
      `touch '${marker}'`,
    ],
    {
      cwd: dir,
      timeout: scaled(900_000),
      maxBuffer: 64 * 1024 * 1024,
      env: { ...process.env, npm_config_userconfig: registry.npmrc },
    },
  ).catch((failure: { stdout?: string; stderr?: string; message: string }) => {
    throw new Error(
      `pnpm release failed:\n${failure.stdout ?? ''}${failure.stderr ?? failure.message}`,
    );
  });
  return {
    dir,
    output: `${released.stdout}${released.stderr}`,
    gateRan: existsSync(marker),
    tags: (await git(dir, ['tag', '--list'])).split('\n').filter(Boolean),
    headSubject: (await git(dir, ['log', '-1', '--format=%s'])).trim(),
  };
}

/** The version of the package in `folder` (relative to the clone). */
export function releasedVersion(clone: string, folder: string): string {
  return (
    JSON.parse(readFileSync(join(clone, folder, 'package.json'), 'utf8')) as { version: string }
  ).version;
}
