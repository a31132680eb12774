#!/usr/bin/env node
// `pnpm build` (and so `pnpm demo`): `tsc -b` over every package, with a line on stderr per
// package as tsc starts building it (a full build takes a minute or more on a small machine, and a
// silent one looks hung), and the time it took at the end. tsc's own diagnostics pass through.
//
//   node tooling/scripts/build.mjs [--project <tsconfig.json>]   (default: the root tsconfig.json)
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const { values } = parseArgs({ options: { project: { type: 'string' } } });
const project = resolve(values.project ?? join(root, 'tsconfig.json'));
const tsc = createRequire(join(root, 'package.json')).resolve('typescript/bin/tsc');

// tsc --verbose says, per project, why it is or is not built; of that only "Building project" is
// news. Its lines start with the time; the project list under the first one is indented.
const VERBOSE = /^\d{1,2}:\d{2}:\d{2}( [AP]M)? - |^\s{4}\* |^\s*$/;
const BUILDING = /Building project '(.+)'\.\.\.$/;

const started = Date.now();
let built = 0;
const child = spawn(process.execPath, [tsc, '-b', project, '--verbose'], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
createInterface({ input: child.stdout }).on('line', (line) => {
  const building = BUILDING.exec(line);
  if (building) {
    built += 1;
    const folder = relative(dirname(project), dirname(building[1])) || '.';
    process.stderr.write(`build: ${folder}\n`);
  } else if (!VERBOSE.test(line)) {
    process.stdout.write(`${line}\n`);
  }
});
child.once('close', (code) => {
  const seconds = Math.round((Date.now() - started) / 1000);
  const what = built === 0 ? 'everything up to date' : `${built} built`;
  process.stderr.write(`build: ${code === 0 ? 'done' : 'failed'} (${what}, ${seconds} s)\n`);
  process.exitCode = code ?? 1;
});
