// create-rondo scaffolds projects that depend on Rondo's released versions, named in
// packages/create-rondo/src/versions.ts. A release that moves one of them rewrites that file and
// releases create-rondo too, so `npm create rondo` never names a version that was not published.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The packages a scaffold depends on, and where their manifests are. */
export const SCAFFOLD_PACKAGES = {
  '@rondo/server': 'packages/server',
  '@rondo/logtalk-host': 'apps/logtalk-host',
  '@rondo/client': 'packages/client',
};

const VERSIONS_FILE = join('packages', 'create-rondo', 'src', 'versions.ts');

/**
 * The changeset that releases create-rondo with the new versions, when the plan moves a package a
 * scaffold depends on but releases create-rondo at no level (undefined otherwise).
 */
export function scaffoldChangeset(plan) {
  const moved = plan.releases.filter(
    (release) => release.name in SCAFFOLD_PACKAGES && release.type !== 'none',
  );
  const scaffold = plan.releases.find((release) => release.name === 'create-rondo');
  if (moved.length === 0 || (scaffold && scaffold.type !== 'none')) return undefined;
  const names = moved.map((release) => `\`${release.name}@${release.newVersion}\``).join(', ');
  return `---\n'create-rondo': patch\n---\n\nNew projects depend on ${names}.\n`;
}

/** Rewrites versions.ts with the versions now in the manifests; returns whether it changed. */
export function syncScaffoldVersions(root) {
  const file = join(root, VERSIONS_FILE);
  const before = readFileSync(file, 'utf8');
  let after = before;
  for (const [name, folder] of Object.entries(SCAFFOLD_PACKAGES)) {
    const { version } = JSON.parse(readFileSync(join(root, folder, 'package.json'), 'utf8'));
    const entry = new RegExp(`('${name.replace('/', '\\/')}': )'[^']*'`);
    if (!entry.test(after)) throw new Error(`release: ${VERSIONS_FILE} does not name ${name}`);
    after = after.replace(entry, `$1'${version}'`);
  }
  if (after !== before) writeFileSync(file, after);
  return after !== before;
}
