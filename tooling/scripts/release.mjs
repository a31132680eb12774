#!/usr/bin/env node
// `pnpm release`: cuts a release of every package with pending changesets (docs/releasing.md).
//
//   pnpm release [--dry-run] [--registry <url>] [--gate "<command>"] [--no-publish]
//
// 1. plan     the pending changesets' release plan; refused if a recorded breaking change would
//             ship as a compatible version (semver) or the git tree is not clean
// 2. version  `changeset version`: versions, internal ranges, a CHANGELOG.md entry per package;
//             create-rondo's scaffold versions follow (scaffoldVersions.mjs)
// 3. build    `pnpm build`
// 4. gate     `pnpm test` (--gate names another command): nothing is committed or published
//             unless it passes
// 5. commit   one release commit of the version bump
// 6. publish  `changeset publish` to the configured registry (npm's, or --registry), which tags
//             the commit `<name>@<version>` per published package
//
// --dry-run prints the plan, the tags and every command, and changes nothing. --no-publish stops
// after the commit (a release reviewed before it is published: `pnpm exec changeset publish` then
// publishes and tags it). In pre-release mode
// (`pnpm changeset pre enter next`) the same command cuts `-next.N` versions under the `next` tag.
import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import {
  publicReleases,
  readReleasePlan,
  semverViolations,
  workspaceManifests,
} from './releasePlan.mjs';
import { scaffoldChangeset, syncScaffoldVersions } from './scaffoldVersions.mjs';

const USAGE =
  'usage: pnpm release [--dry-run] [--registry <url>] [--gate "<command>"] [--no-publish]';

/** The options of one run, from the command line. */
function readOptions(argv) {
  const { values } = parseArgs({
    args: argv,
    options: {
      'dry-run': { type: 'boolean', default: false },
      'no-publish': { type: 'boolean', default: false },
      registry: { type: 'string' },
      gate: { type: 'string', default: 'pnpm test' },
      help: { type: 'boolean', default: false },
    },
  });
  return {
    dryRun: values['dry-run'],
    publish: !values['no-publish'],
    registry: values.registry,
    gate: values.gate,
    help: values.help,
  };
}

/** The workspace root: the nearest folder up from the working directory with pnpm-workspace.yaml. */
function workspaceRoot() {
  let dir = process.cwd();
  while (!existsSync(join(dir, 'pnpm-workspace.yaml'))) {
    const parent = dirname(dir);
    if (parent === dir)
      throw new Error('release: no pnpm-workspace.yaml above the working directory');
    dir = parent;
  }
  return dir;
}

const say = (line) => console.log(`release: ${line}`);

/** Runs one step's command in the workspace, its output shown as it comes. */
function runStep(root, title, command, args, env = {}) {
  say(`${title}: ${[command, ...args].join(' ')}`);
  execFileSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
}

/** The registry `changeset publish` would publish to. */
function targetRegistry(root, registry) {
  if (registry) return registry;
  return execFileSync('npm', ['config', 'get', 'registry'], { cwd: root, encoding: 'utf8' }).trim();
}

/** Files the version step changed or wrote, for prettier. */
function versionedFiles(root) {
  const status = execFileSync('git', ['status', '--porcelain', '--untracked-files=all'], {
    cwd: root,
    encoding: 'utf8',
  });
  return status
    .split('\n')
    .filter((line) => line.length > 3 && !line.startsWith(' D'))
    .map((line) => line.slice(3))
    .filter((file) => /(^|\/)(CHANGELOG\.md|package\.json)$/.test(file));
}

/** Plans the release; returns the public releases, or undefined when there is nothing to do. */
async function plan(root, options) {
  const dirty = execFileSync('git', ['status', '--porcelain'], { cwd: root, encoding: 'utf8' });
  if (dirty.trim() && !options.dryRun) {
    throw new Error(`release: the git tree is not clean; commit or stash first:\n${dirty}`);
  }
  let releasePlan = await readReleasePlan(root);
  const scaffold = scaffoldChangeset(releasePlan);
  if (scaffold && options.dryRun)
    say('would add a create-rondo patch changeset: the scaffold versions move');
  if (scaffold && !options.dryRun) {
    writeFileSync(join(root, '.changeset', 'release-scaffold-versions.md'), scaffold);
    releasePlan = await readReleasePlan(root);
  }
  const violations = semverViolations(releasePlan);
  if (violations.length > 0) {
    throw new Error(`release: semver refuses this plan:\n  ${violations.join('\n  ')}`);
  }
  if (releasePlan.preState?.mode === 'pre')
    say(`pre-release mode, tag ${releasePlan.preState.tag}`);
  const releases = publicReleases(releasePlan, workspaceManifests(root));
  if (releases.length === 0) {
    say('nothing to release: no pending changeset names a public package');
    return undefined;
  }
  say(`${releasePlan.changesets.length} changesets, ${releases.length} packages:`);
  for (const release of releases) {
    say(`  ${release.name} ${release.oldVersion} -> ${release.newVersion} (${release.type})`);
  }
  return releases;
}

/** The whole release: version, build, gate, commit, publish and tag. */
async function release(root, options) {
  const releases = await plan(root, options);
  if (!releases) return;
  const registry = targetRegistry(root, options.registry);
  const publishEnv = options.registry ? { npm_config_registry: options.registry } : {};
  if (options.dryRun) {
    say(
      'dry run: would run pnpm exec changeset version, sync create-rondo, prettier the changelogs',
    );
    say('dry run: would run pnpm build');
    say(`dry run: would run the gate: ${options.gate}`);
    say('dry run: would commit the version bump');
    say(`dry run: would run pnpm exec changeset publish to ${registry}, tagging:`);
    for (const { tag } of releases) say(`  ${tag}`);
    return;
  }
  runStep(root, 'version', 'pnpm', ['exec', 'changeset', 'version']);
  if (syncScaffoldVersions(root)) say('version: create-rondo scaffolds the new versions');
  runStep(root, 'format', 'pnpm', ['exec', 'prettier', '--write', ...versionedFiles(root)]);
  try {
    runStep(root, 'build', 'pnpm', ['build']);
    runStep(root, 'gate', 'sh', ['-c', options.gate]);
  } catch (failure) {
    say('stopped before committing: the version bump is left in the working tree');
    say('(review it with git status; git checkout -- . && git clean -fd undoes it)');
    throw failure;
  }
  const summary = releases.map(({ tag }) => tag).join('\n');
  runStep(root, 'commit', 'git', ['add', '-A']);
  runStep(root, 'commit', 'git', ['commit', '-q', '-m', `Release\n\n${summary}`]);
  if (!options.publish) {
    say(
      'committed, not published (--no-publish): pnpm exec changeset publish publishes and tags it',
    );
    return;
  }
  runStep(root, `publish to ${registry}`, 'pnpm', ['exec', 'changeset', 'publish'], publishEnv);
  say(`released ${releases.length} packages; push the commit and its tags: git push --follow-tags`);
}

const options = readOptions(process.argv.slice(2));
if (options.help) {
  console.log(USAGE);
} else {
  try {
    await release(workspaceRoot(), options);
  } catch (failure) {
    console.error(failure instanceof Error ? failure.message : String(failure));
    process.exitCode = 1;
  }
}
