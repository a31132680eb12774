import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';
import {
  allowsBreaking,
  brokenPackages,
  publicReleases,
  readReleasePlan,
  semverViolations,
  workspaceManifests,
  type ReleasePlan,
} from '../../tooling/scripts/releasePlan.mjs';
import {
  SCAFFOLD_PACKAGES,
  scaffoldChangeset,
  syncScaffoldVersions,
} from '../../tooling/scripts/scaffoldVersions.mjs';
import { repoRoot } from './packedPackages.js';

const run = promisify(execFile);
const gitStatus = async () =>
  (await run('git', ['status', '--porcelain', '--untracked-files=all'], { cwd: repoRoot })).stdout;

describe('the release plan keeps semver', () => {
  const changeset = (summary: string) => ({
    id: 'a-change',
    summary,
    releases: [
      { name: '@rondo/client', type: 'minor' as const },
      { name: '@rondo/server', type: 'patch' as const },
    ],
  });

  it('reads which packages a changeset breaks', () => {
    expect(brokenPackages(changeset('Breaking in `@rondo/client`: a field moved.'))).toEqual([
      '@rondo/client',
    ]);
    expect(brokenPackages(changeset('A breaking rename.'))).toEqual([
      '@rondo/client',
      '@rondo/server',
    ]);
    expect(brokenPackages(changeset('A new option.'))).toEqual([]);
  });

  it('takes a minor bump below 1.0.0 and a major one after as room for a breaking change', () => {
    expect(allowsBreaking('0.1.0', '0.2.0')).toBe(true);
    expect(allowsBreaking('0.1.0', '0.1.1')).toBe(false);
    expect(allowsBreaking('0.9.3', '1.0.0')).toBe(true);
    expect(allowsBreaking('1.4.0', '1.5.0')).toBe(false);
    expect(allowsBreaking('1.4.0', '2.0.0')).toBe(true);
  });

  it('refuses a breaking change released as a patch, names the changeset', () => {
    const plan: ReleasePlan = {
      changesets: [changeset('A breaking rename.')],
      releases: [
        { name: '@rondo/client', type: 'minor', oldVersion: '0.1.0', newVersion: '0.2.0' },
        { name: '@rondo/server', type: 'patch', oldVersion: '0.1.0', newVersion: '0.1.1' },
      ],
    };
    expect(semverViolations(plan)).toEqual([
      expect.stringMatching(
        /^@rondo\/server 0\.1\.0 -> 0\.1\.1: changeset a-change records a breaking change/,
      ),
    ]);
  });

  it("holds for the repository's pending changesets", async () => {
    expect(semverViolations(await readReleasePlan(repoRoot))).toEqual([]);
  });
});

describe("create-rondo's scaffold versions follow a release", () => {
  const release = (name: string, type: 'none' | 'patch' | 'minor') => ({
    name,
    type,
    oldVersion: '0.2.0',
    newVersion: type === 'minor' ? '0.3.0' : type === 'patch' ? '0.2.1' : '0.2.0',
  });

  it('adds a create-rondo patch when a scaffolded package moves and create-rondo does not', () => {
    const moved = scaffoldChangeset({
      changesets: [],
      releases: [release('@rondo/server', 'minor'), release('create-rondo', 'none')],
    });
    expect(moved).toContain("'create-rondo': patch");
    expect(moved).toContain('`@rondo/server@0.3.0`');
    const both = [release('@rondo/server', 'minor'), release('create-rondo', 'patch')];
    expect(scaffoldChangeset({ changesets: [], releases: both })).toBeUndefined();
    const neither = [release('@rondo/core', 'minor')];
    expect(scaffoldChangeset({ changesets: [], releases: neither })).toBeUndefined();
  });

  it('rewrites versions.ts with the versions in the manifests', () => {
    const copy = mkdtempSync(join(tmpdir(), 'rondo-scaffold-'));
    try {
      const versionsTs = join('packages', 'create-rondo', 'src', 'versions.ts');
      mkdirSync(dirname(join(copy, versionsTs)), { recursive: true });
      cpSync(join(repoRoot, versionsTs), join(copy, versionsTs));
      for (const [name, folder] of Object.entries(SCAFFOLD_PACKAGES)) {
        mkdirSync(join(copy, folder), { recursive: true });
        writeFileSync(
          join(copy, folder, 'package.json'),
          JSON.stringify({ name, version: '7.8.9' }),
        );
      }
      expect(syncScaffoldVersions(copy)).toBe(true);
      const text = readFileSync(join(copy, versionsTs), 'utf8');
      for (const name of Object.keys(SCAFFOLD_PACKAGES))
        expect(text).toContain(`'${name}': '7.8.9'`);
      expect(syncScaffoldVersions(copy)).toBe(false);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });
});

describe('pnpm release --dry-run', () => {
  it(
    'prints the plan, each version and tag, and the steps, and changes nothing',
    async () => {
      const before = await gitStatus();
      const { stdout } = await run('pnpm', ['release', '--dry-run'], {
        cwd: repoRoot,
        timeout: 120_000,
      });
      expect(await gitStatus()).toBe(before);
      const releases = publicReleases(
        await readReleasePlan(repoRoot),
        workspaceManifests(repoRoot),
      );
      if (releases.length === 0) {
        expect(stdout).toContain('nothing to release');
        return;
      }
      for (const release of releases) {
        expect(stdout).toContain(`${release.name} ${release.oldVersion} -> ${release.newVersion}`);
        expect(stdout).toMatch(
          new RegExp(`^release: +${release.tag.replace(/[.]/g, '\\.')}$`, 'm'),
        );
      }
      expect(stdout).toContain('would run the gate: pnpm test');
      expect(stdout).toMatch(/would run pnpm exec changeset publish to \S+, tagging/);
    },
    scaled(120_000),
  );

  it('prints its usage', async () => {
    const { stdout } = await run(process.execPath, [
      join(repoRoot, 'tooling', 'scripts', 'release.mjs'),
      '--help',
    ]);
    expect(stdout).toContain('usage: pnpm release [--dry-run]');
  });
});
