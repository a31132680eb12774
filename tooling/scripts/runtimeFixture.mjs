#!/usr/bin/env node
// `pnpm fixture:bun|fixture:deno|fixture:workerd --port N [--host H]`: the conformance fixture
// served at http://H:N/mcp through the fetch handler on Bun, Deno or workerd (Cloudflare's Workers
// runtime, through miniflare), with the binaries their npm packages ship. The fixture is bundled
// first with esbuild, the way a deploy bundles it: no `node` export condition, no Node built-ins.
//
//   node tooling/scripts/runtimeFixture.mjs bun|deno|workerd [--port N] [--host H]
import { spawn } from 'node:child_process';
import { mkdirSync, renameSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const distDir = join(root, 'apps/conformance-fixture/dist/runtimes');
const outDir = join(root, 'apps/conformance-fixture/dist/bundles');
const bin = (name) => join(root, 'node_modules/.bin', name);

/** Each runtime: its entry, the export conditions its bundlers use, and how it is started. */
const RUNTIMES = {
  bun: { entry: 'bun.js', conditions: ['bun'], start: startChild((file) => [bin('bun'), file]) },
  deno: {
    entry: 'deno.js',
    conditions: ['deno'],
    start: startChild((file) => [
      bin('deno'),
      'run',
      '--allow-net',
      '--allow-env',
      // request.signal aborts only when the client goes away, not after every response.
      '--unstable-no-legacy-abort',
      file,
    ]),
  },
  workerd: {
    entry: 'worker.js',
    conditions: ['workerd', 'worker', 'browser'],
    start: startWorkerd,
  },
};

function parseArgs(argv) {
  const [runtime, ...rest] = argv;
  if (!(runtime in RUNTIMES)) fail(`the runtime is one of ${Object.keys(RUNTIMES).join(', ')}`);
  const args = { runtime, port: 3000, host: '127.0.0.1' };
  for (let index = 0; index < rest.length; index += 2) {
    const [flag, value] = [rest[index], rest[index + 1]];
    if (flag === '--port' && /^\d+$/.test(value ?? '')) args.port = Number(value);
    else if (flag === '--host' && value) args.host = value;
    else fail(`unknown option ${flag}`);
  }
  return args;
}

function fail(message) {
  console.error(`runtime fixture: ${message}`);
  process.exit(2);
}

/** Bundles one runtime entry into a single ES module. */
export async function bundleEntry(entry, conditions) {
  mkdirSync(outDir, { recursive: true });
  const outfile = join(outDir, entry);
  // Written aside and renamed: several launchers (the conformance runs) bundle at once.
  const partial = `${outfile}.${process.pid}.partial`;
  await build({
    entryPoints: [join(distDir, entry)],
    outfile: partial,
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    conditions,
    logLevel: 'warning',
  });
  renameSync(partial, outfile);
  return outfile;
}

/** A runtime started as a child process; it is stopped with the launcher. */
function startChild(command) {
  return async (file, { port, host }) => {
    const [program, ...args] = command(file);
    // A process group of its own: node_modules/.bin/deno is a Node shim that starts the real
    // binary, so stopping means signalling the whole group, or the binary outlives the shim.
    const child = spawn(program, [...args, '--port', String(port), '--host', host], {
      stdio: ['ignore', 'inherit', 'inherit'],
      env: { ...process.env, DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1' },
      detached: true,
    });
    const stop = () => {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        // Already gone.
      }
    };
    // Whatever ends this launcher ends the runtime too (SIGKILL of the launcher excepted).
    process.once('exit', stop);
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
    child.once('exit', (code) => process.exit(code ?? 1));
  };
}

/** workerd through miniflare, in this process: it listens until the launcher is stopped. */
async function startWorkerd(file, { port, host }) {
  const { Miniflare } = await import('miniflare');
  const worker = new Miniflare({
    modules: true,
    scriptPath: file,
    compatibilityDate: '2026-07-01',
    host,
    port,
  });
  await worker.ready;
  console.error(`rondo-fixture (workerd): serving http at http://${host}:${port}/mcp`);
  const stop = async () => {
    await worker.dispose();
    process.exit(0);
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

const args = parseArgs(process.argv.slice(2));
const runtime = RUNTIMES[args.runtime];
const file = await bundleEntry(runtime.entry, runtime.conditions);
await runtime.start(file, args);
