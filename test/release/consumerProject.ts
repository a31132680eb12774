import { execFile, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { firstTypeScriptBlock } from '@rondo/test-support/readmeExample';
import { scaled } from '@rondo/test-support/timeFactor';
import { repoRoot, strictConsumerOptions } from './packedPackages.js';

const run = promisify(execFile);

/** The package managers a user may install with. */
export type PackageManager = 'npm' | 'pnpm' | 'yarn';

/** Yarn 4, from the workspace's pinned `@yarnpkg/cli-dist` (no corepack, no global install). */
const yarnJs = join(repoRoot, 'node_modules', '@yarnpkg', 'cli-dist', 'bin', 'yarn.js');

/** The command line that runs a package manager's `args`. */
export function managerCommand(manager: PackageManager, args: string[]): [string, string[]] {
  return manager === 'yarn' ? [process.execPath, [yarnJs, ...args]] : [manager, args];
}

/** The README's server ("A server in a few lines"): what a user copies first. */
const README_SERVER = firstTypeScriptBlock(join(repoRoot, 'README.md'), 'A server in a few lines');

/**
 * Writes a fresh project in `dir` that depends on `@rondo/server` (and zod, @types/node) from the
 * registry at `registryUrl`, configured for `manager` the way its users configure a registry.
 */
export function writeConsumerProject(
  dir: string,
  manager: PackageManager,
  registryUrl: string,
  versions: { rondo: string; zod: string; typesNode: string; upstream: string },
): void {
  mkdirSync(join(dir, 'src'), { recursive: true });
  const manifest = {
    name: `consumer-${manager}`,
    private: true,
    type: 'module',
    dependencies: { '@rondo/server': `^${versions.rondo}`, zod: versions.zod },
    devDependencies: { '@types/node': versions.typesNode },
  };
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: { ...strictConsumerOptions, noEmit: false, outDir: 'dist', rootDir: 'src' },
      include: ['src'],
    }),
  );
  writeFileSync(join(dir, 'src', 'main.ts'), README_SERVER);
  const scope = new URL(registryUrl);
  if (manager === 'yarn') {
    writeFileSync(
      join(dir, '.yarnrc.yml'),
      [
        `npmRegistryServer: "${versions.upstream.replace(/\/$/, '')}"`,
        'npmScopes:',
        '  rondo:',
        `    npmRegistryServer: "${registryUrl.replace(/\/$/, '')}"`,
        `unsafeHttpWhitelist: ["${scope.hostname}"]`,
        'nodeLinker: node-modules',
        'enableTelemetry: false',
        'enableImmutableInstalls: false',
        // Yarn 4 holds back versions published in the last days; these were published a moment ago.
        'npmPreapprovedPackages: ["@rondo/*"]',
        // Yarn's metadata cache is not keyed by registry, and this registry's port changes per run.
        `globalFolder: "${join(dir, '.yarn-global')}"`,
        '',
      ].join('\n'),
    );
    // An empty yarn.lock makes the folder a project of its own, whatever sits above it.
    writeFileSync(join(dir, 'yarn.lock'), '');
  } else {
    // Only Rondo's scope comes from the local registry; everything else from the usual one.
    writeFileSync(join(dir, '.npmrc'), `@rondo:registry=${registryUrl}\n`);
  }
}

/** Installs the project's dependencies with `manager`; returns the output on failure. */
export async function installWith(dir: string, manager: PackageManager): Promise<void> {
  const [command, args] = managerCommand(manager, ['install']);
  try {
    await run(command, args, {
      cwd: dir,
      timeout: scaled(300_000),
      env: { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false' },
    });
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(
      `${manager} install failed:\n${failed.stdout ?? ''}${failed.stderr ?? failed.message}`,
    );
  }
}

/** A modern-era `tools/call` of the README server's `add`, as one stdio line. */
const ADD_CALL = `${JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: {
    name: 'add',
    arguments: { a: 2, b: 3 },
    _meta: {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {},
      'io.modelcontextprotocol/clientInfo': { name: 'consumer', version: '1.0.0' },
    },
  },
})}\n`;

/** Starts the compiled README server over stdio, calls `add(2, 3)` and returns the answer's text. */
async function callReadmeServer(dir: string): Promise<string> {
  const child = spawn(process.execPath, [join(dir, 'dist', 'main.js')], {
    cwd: dir,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const line = new Promise<string>((resolve, reject) => {
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      if (stdout.includes('\n')) resolve(stdout.slice(0, stdout.indexOf('\n')));
    });
    child.once('exit', (code) => reject(new Error(`the server exited with ${code}: ${stderr}`)));
  });
  child.stdin.write(ADD_CALL);
  try {
    const answer = JSON.parse(await line) as { result?: { content?: { text?: string }[] } };
    return answer.result?.content?.[0]?.text ?? `no answer: ${JSON.stringify(answer)}`;
  } finally {
    child.stdin.end();
    if (child.exitCode === null) await new Promise((resolve) => child.once('exit', resolve));
  }
}

/**
 * Compiles the project with the strict consumer options, runs the README server it holds and calls
 * its tool; returns the tool's answer.
 */
export async function compileAndRun(dir: string): Promise<string> {
  const tsc = join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc');
  try {
    await run(process.execPath, [tsc, '-p', dir], { cwd: dir, timeout: scaled(240_000) });
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string; signal?: string; message: string };
    const output = `${failed.stdout ?? ''}${failed.stderr ?? ''}` || failed.message;
    throw new Error(`tsc failed${failed.signal ? ` (${failed.signal})` : ''}:\n${output}`);
  }
  return callReadmeServer(dir);
}
