import { execFile } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  compileConsumer,
  entrySpecifiers,
  installScratch,
  pack,
  publishablePackages,
  repoRoot,
  runProgram,
} from './packedPackages.js';
import { startRedisServer } from '@rondo/test-support/redisServer';
import { scaled } from '@rondo/test-support/timeFactor';
import { typesProblems } from './typesProblems.js';

const run = promisify(execFile);
// Every public package, the apps' commands (@rondo/gateway, @rondo/logtalk-host) included; the
// libraries' README examples run here, the apps' in their own tests (their examples are commands).
const packages = publishablePackages({ withApps: true });
const libraries = publishablePackages();
const hasSwipl = (process.env.PATH ?? '').split(':').some((dir) => existsSync(join(dir, 'swipl')));

describe(
  'every publishable package, packed and installed outside the workspace',
  { timeout: scaled(60_000) },
  () => {
    // Made in beforeAll, so a run that filters these tests out leaves no folder behind.
    let work = '';
    const tarballs: Record<string, string> = {};
    const unpacked: Record<string, string> = {};
    let scratch = '';

    beforeAll(async () => {
      work = mkdtempSync(join(tmpdir(), 'rondo-pack-'));
      scratch = join(work, 'scratch');
      mkdirSync(join(work, 'tarballs'));
      mkdirSync(scratch);
      for (const pkg of packages) {
        tarballs[pkg.name] = await pack(pkg, join(work, 'tarballs'));
        unpacked[pkg.name] = join(work, 'unpacked', pkg.name.replace('/', '+'));
        mkdirSync(unpacked[pkg.name]!, { recursive: true });
        await run('tar', [
          '-xzf',
          tarballs[pkg.name]!,
          '-C',
          unpacked[pkg.name]!,
          '--strip-components=1',
        ]);
      }
      const core = JSON.parse(readFileSync(join(unpacked['@rondo/core']!, 'package.json'), 'utf8'));
      // What a user adds besides Rondo itself (the README install lines): zod, express for the
      // router, and for the @rondo/otel example the OpenTelemetry API and the SDK pieces it sets up.
      // Read from the root's node_modules: not every one exports its package.json.
      const workspaceVersion = (name: string): string =>
        (
          JSON.parse(
            readFileSync(join(repoRoot, 'node_modules', name, 'package.json'), 'utf8'),
          ) as { version: string }
        ).version;
      // @types/node for the strict consumer compile: a Node project has it, nothing else is added.
      const extras = [
        '@types/node',
        'express',
        '@opentelemetry/api',
        '@opentelemetry/context-async-hooks',
        '@opentelemetry/core',
        '@opentelemetry/sdk-trace-base',
      ];
      await installScratch(scratch, tarballs, {
        zod: core.dependencies.zod,
        ...Object.fromEntries(extras.map((name) => [name, workspaceVersion(name)])),
      });
    }, scaled(600_000));

    afterAll(() => {
      if (work) rmSync(work, { recursive: true, force: true });
    });

    it('finds the packages', () => {
      expect(packages.map((pkg) => pkg.name)).toEqual(
        expect.arrayContaining(['@rondo/protocol', '@rondo/core']),
      );
    });

    it('installs every @rondo package from its tarball, none from the registry', () => {
      const lock = JSON.parse(readFileSync(join(scratch, 'package-lock.json'), 'utf8'));
      const rondo = Object.entries(lock.packages as Record<string, { resolved?: string }>).filter(
        ([path]) => path.includes('node_modules/@rondo/'),
      );
      expect(rondo.map(([path]) => path.replace(/^.*node_modules\//, '')).sort()).toEqual(
        packages
          .map((pkg) => pkg.name)
          .filter((name) => name.startsWith('@rondo/'))
          .sort(),
      );
      for (const [path, entry] of rondo) expect(entry.resolved, path).toMatch(/^file:.*\.tgz$/);
    });

    // One program over every entry (one check of zod's declarations, not ten): an error names the
    // declaration file, so the package at fault is plain.
    it(
      'compiles a strict consumer of every entry with skipLibCheck: false, no optional peer or @types added',
      async () => {
        const specifiers = packages.flatMap((pkg) => {
          const manifest = JSON.parse(
            readFileSync(join(unpacked[pkg.name]!, 'package.json'), 'utf8'),
          ) as { exports: Record<string, unknown> };
          return entrySpecifiers(pkg.name, manifest);
        });
        expect(specifiers).toContain('@rondo/transport-http');
        expect(await compileConsumer(scratch, specifiers)).toBe('');
      },
      scaled(180_000),
    );

    describe.each(packages)('$name', (pkg) => {
      it('packs with no workspace: or catalog: ranges left', () => {
        const manifest = readFileSync(join(unpacked[pkg.name]!, 'package.json'), 'utf8');
        expect(manifest).not.toMatch(/"(workspace|catalog):/);
      });

      // Issue 29: the MIT licence text of the repository ships in every tarball.
      it('ships the MIT licence in its tarball', () => {
        const licence = (dir: string) => readFileSync(join(dir, 'LICENSE'), 'utf8');
        expect(existsSync(join(unpacked[pkg.name]!, 'LICENSE'))).toBe(true);
        expect(licence(unpacked[pkg.name]!)).toBe(licence(repoRoot));
      });

      it('lists types first in every exports condition', () => {
        const manifest = JSON.parse(
          readFileSync(join(unpacked[pkg.name]!, 'package.json'), 'utf8'),
        );
        const entries = Object.entries(manifest.exports as Record<string, unknown>);
        expect(entries.length).toBeGreaterThan(0);
        for (const [subpath, target] of entries) {
          if (typeof target !== 'object' || target === null) continue;
          expect(Object.keys(target)[0], `exports["${subpath}"]`).toBe('types');
        }
      });

      // strict: publint's warnings count as errors (suggestions stay suggestions).
      it('is publint clean, strict', async () => {
        const { messages, pkg: manifest } = await publint({
          pkgDir: unpacked[pkg.name]!,
          pack: false,
          level: 'warning',
          strict: true,
        });
        const errors = messages
          .filter((message) => message.type === 'error')
          .map((message) => formatMessage(message, manifest));
        expect(errors).toEqual([]);
      });

      it('has no arethetypeswrong problem under the ESM-only profile', async () => {
        expect(await typesProblems(tarballs[pkg.name]!)).toEqual([]);
      });
    });

    describe.each(libraries)('$name', (pkg) => {
      it(
        'runs its README example from the installed tarball',
        async (context) => {
          const readmePath = join(pkg.dir, 'README.md');
          expect(existsSync(readmePath), `${pkg.name} has a README.md`).toBe(true);
          const readme = readFileSync(readmePath, 'utf8');
          if (pkg.name === '@rondo/logtalk-bridge' && !hasSwipl) {
            console.warn(
              'logtalk-bridge README example skipped: swipl is not installed (apt-get install -y swi-prolog-nox)',
            );
            context.skip();
          }
          // The @rondo/redis example talks to a real Redis: one of its own, named by REDIS_URL.
          const redis = pkg.name === '@rondo/redis' ? await startRedisServer() : undefined;
          if (redis) process.env.REDIS_URL = redis.url;
          const result = await runProgram(scratch, readme).finally(async () => {
            delete process.env.REDIS_URL;
            await redis?.stop();
          });
          expect(result.exitCode, result.output).toBe(
            result.stoppedAsServer && result.exitCode === null ? null : 0,
          );
          expect(result.output).not.toMatch(/ERR_MODULE_NOT_FOUND|Cannot find (module|package)/);
        },
        scaled(60_000),
      );
    });
  },
);

describe('changesets', () => {
  it(
    '`pnpm changeset version` bumps versions and writes changelogs (in a copy of the repo)',
    async () => {
      const copy = mkdtempSync(join(tmpdir(), 'rondo-changeset-'));
      try {
        // Only what changesets reads: the manifests, the workspace file and .changeset/.
        for (const file of ['package.json', 'pnpm-workspace.yaml'])
          cpSync(join(repoRoot, file), join(copy, file));
        cpSync(join(repoRoot, '.changeset'), join(copy, '.changeset'), { recursive: true });
        for (const group of ['packages', 'apps']) {
          for (const folder of readdirSync(join(repoRoot, group))) {
            const manifest = join(repoRoot, group, folder, 'package.json');
            if (!existsSync(manifest)) continue;
            mkdirSync(join(copy, group, folder), { recursive: true });
            cpSync(manifest, join(copy, group, folder, 'package.json'));
          }
        }
        for (const folder of ['tooling', 'bench']) {
          if (!existsSync(join(repoRoot, folder, 'package.json'))) continue;
          mkdirSync(join(copy, folder), { recursive: true });
          cpSync(join(repoRoot, folder, 'package.json'), join(copy, folder, 'package.json'));
        }
        symlinkSync(join(repoRoot, 'node_modules'), join(copy, 'node_modules'), 'dir');
        // A known changeset, so the assertion does not depend on which ones are pending today.
        writeFileSync(
          join(copy, '.changeset', 'pack-test-bump.md'),
          "---\n'@rondo/transport-ws': minor\n---\n\nA test bump.\n",
        );
        const before = JSON.parse(
          readFileSync(join(copy, 'packages', 'transport-ws', 'package.json'), 'utf8'),
        ).version as string;

        await run('pnpm', ['changeset', 'version'], { cwd: copy, timeout: scaled(120_000) });

        const after = JSON.parse(
          readFileSync(join(copy, 'packages', 'transport-ws', 'package.json'), 'utf8'),
        ).version as string;
        // At least the minor bump asked for here (a pending changeset of the package may ask for more).
        const [major = 0, minor = 0] = before.split('.').map(Number);
        const [newMajor = 0, newMinor = 0] = after.split('.').map(Number);
        expect(
          newMajor > major || (newMajor === major && newMinor > minor),
          `${before} -> ${after}`,
        ).toBe(true);
        const changelog = readFileSync(
          join(copy, 'packages', 'transport-ws', 'CHANGELOG.md'),
          'utf8',
        );
        expect(changelog).toContain('A test bump.');
        expect(existsSync(join(copy, 'packages', 'core', 'CHANGELOG.md'))).toBe(true);
        expect(
          readdirSync(join(copy, '.changeset')).filter(
            (file) => file.endsWith('.md') && file !== 'README.md',
          ),
        ).toEqual([]);
      } finally {
        rmSync(copy, { recursive: true, force: true });
      }
    },
    scaled(180_000),
  );
});
