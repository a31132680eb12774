import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { transpileExample } from '@rondo/test-support/readmeExample';
import { scaled } from '@rondo/test-support/timeFactor';

const run = promisify(execFile);

/** The repository root. */
export const repoRoot = join(import.meta.dirname, '..', '..');

/** A package the workspace publishes. */
export interface PublishablePackage {
  name: string;
  dir: string;
}

/** Every non-private package under packages/ (and, with `withApps`, under apps/ too). */
export function publishablePackages(options: { withApps?: boolean } = {}): PublishablePackage[] {
  const groups = options.withApps ? ['packages', 'apps'] : ['packages'];
  return groups
    .flatMap((group) =>
      readdirSync(join(repoRoot, group)).map((folder) => join(repoRoot, group, folder)),
    )
    .filter((dir) => existsSync(join(dir, 'package.json')))
    .map((dir) => ({
      dir,
      manifest: JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
        name: string;
        private?: boolean;
      },
    }))
    .filter(({ manifest }) => manifest.private !== true)
    .map(({ dir, manifest }) => ({ name: manifest.name, dir }));
}

/** Packs one package with `pnpm pack` (which rewrites `workspace:` and `catalog:` ranges) and returns the tarball. */
export async function pack(pkg: PublishablePackage, destination: string): Promise<string> {
  const before = new Set(readdirSync(destination));
  await run('pnpm', ['pack', '--pack-destination', destination], {
    cwd: pkg.dir,
    timeout: 120_000,
  });
  const created = readdirSync(destination).filter(
    (file) => file.endsWith('.tgz') && !before.has(file),
  );
  if (created.length !== 1)
    throw new Error(`pnpm pack of ${pkg.name} made ${created.length} tarballs`);
  return join(destination, created[0]!);
}

/**
 * Makes a scratch npm project outside the workspace that depends on the tarballs. `overrides` point
 * the packages' dependencies on each other at the tarballs too, since none is on the registry yet.
 */
export async function installScratch(
  scratch: string,
  tarballs: Record<string, string>,
  extra: Record<string, string>,
): Promise<void> {
  const local = Object.fromEntries(
    Object.entries(tarballs).map(([name, file]) => [name, `file:${file}`]),
  );
  const manifest = {
    name: 'rondo-pack-scratch',
    private: true,
    type: 'module',
    dependencies: { ...local, ...extra },
    overrides: local,
  };
  writeFileSync(join(scratch, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  await run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: scratch,
    timeout: 300_000,
  });
}

/** The first ```ts block of a README and the source files (```prolog blocks) it names. */
export function readmeProgram(readme: string): { code: string; files: Record<string, string> } {
  const code = /```ts\n([\s\S]*?)```/.exec(readme)?.[1];
  if (!code) throw new Error('the README has no ```ts example');
  const files: Record<string, string> = {};
  const prolog = /```prolog\n([\s\S]*?)```/.exec(readme)?.[1];
  const named = /['"]([\w.-]+\.(?:pl|lgt))['"]/.exec(code)?.[1];
  if (prolog && named) files[named] = prolog;
  return { code, files };
}

/** What a README program did. */
export interface ProgramRun {
  exitCode: number | null;
  output: string;
  /** True when it was a server that kept running and was stopped with SIGTERM after it spoke. */
  stoppedAsServer: boolean;
}

/**
 * Transpiles a README's TypeScript example (like test/support/readmeExample.ts) and runs it in the
 * scratch project. An example that starts a server (it prints, then keeps running) is stopped with
 * SIGTERM once it has been quiet for `settleMs`; it must then exit by itself.
 */
export async function runProgram(
  scratch: string,
  readme: string,
  timeoutMs = scaled(30_000),
  settleMs = 2000,
): Promise<ProgramRun> {
  const { code, files } = readmeProgram(readme);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(scratch, name), text);
  const js = transpileExample(code);
  const file = join(scratch, `example-${Date.now()}.mjs`);
  writeFileSync(file, js);
  const child = spawn(process.execPath, [file], {
    cwd: scratch,
    env: { ...process.env, PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let stoppedAsServer = false;
  let quiet: NodeJS.Timeout | undefined;
  const deadline = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const heard = (chunk: Buffer) => {
    output += chunk.toString('utf8');
    clearTimeout(quiet);
    quiet = setTimeout(() => {
      stoppedAsServer = true;
      child.kill('SIGTERM');
    }, settleMs);
  };
  // A server says where it listens on stderr (serve's line), so either stream counts as speaking.
  child.stdout.on('data', heard);
  child.stderr.on('data', heard);
  const exitCode = await new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  clearTimeout(deadline);
  clearTimeout(quiet);
  return { exitCode, output, stoppedAsServer };
}

/** The import specifiers a package's `exports` map offers (every subpath but `./package.json`). */
export function entrySpecifiers(
  name: string,
  manifest: { exports: Record<string, unknown> },
): string[] {
  return Object.keys(manifest.exports)
    .filter((subpath) => subpath !== './package.json')
    .map((subpath) => (subpath === '.' ? name : `${name}/${subpath.slice(2)}`));
}

/**
 * The compiler options a careful consumer uses: strict, the two checks `strict` leaves out
 * (optional properties that may not be set to `undefined`, indexed access that may miss), and its
 * dependencies' `.d.ts` checked too.
 */
export const strictConsumerOptions = {
  strict: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  skipLibCheck: false,
  noEmit: true,
  target: 'ES2022',
  module: 'NodeNext',
  moduleResolution: 'NodeNext',
  types: ['node'],
};

/**
 * Type-checks, inside `project`, a consumer that imports every entry named and touches each value,
 * so every declaration file those entries reach is loaded. Returns tsc's output ('' when clean).
 */
export async function compileConsumer(project: string, specifiers: string[]): Promise<string> {
  const folder = mkdtempSync(join(project, 'consumer-'));
  const code = specifiers
    .map((specifier, index) => `import * as entry${index} from '${specifier}';`)
    .concat(
      `export const names: string[] = [${specifiers.map((_, i) => `...Object.keys(entry${i})`).join(', ')}];`,
    )
    .join('\n');
  writeFileSync(join(folder, 'consumer.ts'), `${code}\n`);
  writeFileSync(
    join(folder, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: strictConsumerOptions, files: ['consumer.ts'] }),
  );
  const tsc = join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc');
  try {
    await run(process.execPath, [tsc, '-p', folder], { cwd: folder, timeout: scaled(120_000) });
    return '';
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string; message: string };
    return `${failed.stdout ?? ''}${failed.stderr ?? ''}` || failed.message;
  }
}
