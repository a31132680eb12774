import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
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

/** What a first server looks like in a user's project: one tool, served over HTTP, called once. */
const CONSUMER = `import { z } from 'zod';
import { createServer, serve, text } from '@rondo/server';

const server = createServer({ name: 'consumer', version: '1.0.0' }).tool(
  'add',
  { description: 'Adds two numbers', input: z.object({ a: z.number(), b: z.number() }) },
  ({ a, b }) => text(String(a + b)),
);
const running = await serve(server, { transport: 'http', port: 0 });
const meta = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'consumer', version: '1.0.0' },
};
const response = await fetch(running.url, {
  method: 'POST',
  headers: {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': 'tools/call',
    'mcp-name': 'add',
  },
  body: JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'add', arguments: { a: 2, b: 3 }, _meta: meta },
  }),
});
const answer = (await response.json()) as { result?: { content?: { text?: string }[] } };
console.log(\`add(2, 3) = \${answer.result?.content?.[0]?.text ?? 'no answer'}\`);
await running.close();
`;

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
  writeFileSync(join(dir, 'src', 'main.ts'), CONSUMER);
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
      timeout: 300_000,
      env: { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false' },
    });
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(
      `${manager} install failed:\n${failed.stdout ?? ''}${failed.stderr ?? failed.message}`,
    );
  }
}

/** Compiles the project with the strict consumer options and runs it; returns its stdout. */
export async function compileAndRun(dir: string): Promise<string> {
  const tsc = join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc');
  try {
    await run(process.execPath, [tsc, '-p', dir], { cwd: dir, timeout: 240_000 });
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string; signal?: string; message: string };
    const output = `${failed.stdout ?? ''}${failed.stderr ?? ''}` || failed.message;
    throw new Error(`tsc failed${failed.signal ? ` (${failed.signal})` : ''}:\n${output}`);
  }
  const { stdout } = await run(process.execPath, [join(dir, 'dist', 'main.js')], {
    cwd: dir,
    timeout: 30_000,
  });
  return stdout;
}
