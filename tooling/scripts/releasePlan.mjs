// What `pnpm release` would release: the plan `changeset status` computes from the pending
// changesets, and the semver rule the release holds it to (a recorded breaking change is never a
// patch). Used by tooling/scripts/release.mjs, for the real run and for --dry-run alike.
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';

/**
 * The release plan of the workspace at `root`: `{ changesets, releases }` (releases: name, type,
 * oldVersion, newVersion), as `changeset version` would apply it, read without writing anything.
 */
export async function readReleasePlan(root) {
  // The planner @changesets/cli itself runs, from the cli's own dependencies (so its version is
  // the cli's): `changeset status` would also refuse packages changed since main without a changeset.
  const fromCli = createRequire(
    createRequire(join(root, 'package.json')).resolve('@changesets/cli'),
  );
  const { default: getReleasePlan } = fromCli('@changesets/get-release-plan');
  return getReleasePlan(root);
}

/** The package manifests of the workspace, by name: `{ name, version, private, dir }`. */
export function workspaceManifests(root) {
  const listed = execFileSync('pnpm', ['-r', 'ls', '--depth', '-1', '--json'], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
  });
  return new Map(
    JSON.parse(listed)
      .filter((pkg) => pkg.path !== root && pkg.name)
      .map((pkg) => [
        pkg.name,
        { name: pkg.name, version: pkg.version, private: pkg.private === true, dir: pkg.path },
      ]),
  );
}

/**
 * The packages a changeset's summary says it breaks: those named after "Breaking in" (a sentence
 * that names packages), or every package it releases when it says "breaking" without naming one.
 */
export function brokenPackages(changeset) {
  const sentence = /\bbreaking in\b([^.]*)/i.exec(changeset.summary)?.[1];
  const released = changeset.releases.map((release) => release.name);
  if (sentence) return released.filter((name) => sentence.includes(name));
  return /\bbreaking\b/i.test(changeset.summary) ? released : [];
}

/** Whether going from `oldVersion` to `newVersion` may carry a breaking change under semver. */
export function allowsBreaking(oldVersion, newVersion) {
  const [oldMajor = 0, oldMinor = 0] = oldVersion.split('.').map(Number);
  const [newMajor = 0, newMinor = 0] = newVersion.split('.').map(Number);
  // Below 1.0.0 a caret range stops at the next minor, so a minor bump is the breaking one.
  if (oldMajor === 0) return newMajor > 0 || newMinor > oldMinor;
  return newMajor > oldMajor;
}

/** Every breaking change the plan would release as a compatible version: `[]` when semver holds. */
export function semverViolations(plan) {
  const releases = new Map(plan.releases.map((release) => [release.name, release]));
  return plan.changesets.flatMap((changeset) =>
    brokenPackages(changeset)
      .map((name) => releases.get(name))
      .filter((release) => release && !allowsBreaking(release.oldVersion, release.newVersion))
      .map(
        (release) =>
          `${release.name} ${release.oldVersion} -> ${release.newVersion}: changeset ` +
          `${changeset.id} records a breaking change (bump it as minor below 1.0.0, major after)`,
      ),
  );
}

/** The public packages the plan publishes, with the git tag each gets (`name@version`). */
export function publicReleases(plan, manifests) {
  return plan.releases
    .filter((release) => release.type !== 'none')
    .filter((release) => manifests.get(release.name)?.private === false)
    .map((release) => ({ ...release, tag: `${release.name}@${release.newVersion}` }))
    .sort((a, b) => a.name.localeCompare(b.name));
}
