import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  desktopConfig,
  packageNameOf,
  parseCreateArgs,
  scaffoldFiles,
  ScaffoldError,
  UsageError,
  writeScaffold,
} from 'create-rondo';

/** tsconfig.json with its line comments taken out, for JSON.parse. */
const withoutComments = (text: string) => text.replace(/^\s*\/\/.*$/gm, '');

describe('scaffoldFiles', () => {
  it('makes a TypeScript project: ESM manifest, strict tsconfig, a server with a tool, a prompt and a resource, a test', () => {
    const files = scaffoldFiles({ directory: '/tmp/My Server', kind: 'typescript' });
    expect(Object.keys(files).sort()).toEqual(
      [
        '.gitignore',
        'README.md',
        'package.json',
        'src/server.test.ts',
        'src/server.ts',
        'tsconfig.json',
      ].sort(),
    );
    const manifest = JSON.parse(files['package.json']!);
    expect(manifest).toMatchObject({ name: 'my-server', type: 'module' });
    expect(Object.keys(manifest.dependencies)).toEqual(['@rondo/server', 'zod']);
    expect(JSON.parse(withoutComments(files['tsconfig.json']!)).compilerOptions.strict).toBe(true);
    for (const piece of ['.tool(', '.prompt(', '.resource(', "transport: 'stdio'"])
      expect(files['src/server.ts']).toContain(piece);
    expect(files['src/server.test.ts']).toContain("from '@rondo/client/node'");
    expect(manifest.devDependencies).toHaveProperty('@rondo/client');
    expect(manifest.devDependencies).not.toHaveProperty('@modelcontextprotocol/sdk');
  });

  it('makes a Prolog project served by rondo-logtalk', () => {
    const files = scaffoldFiles({ directory: '/tmp/birds', kind: 'prolog' });
    expect(files['server.pl']).toMatch(/^tools\(\[tool\(add, add, 3\)\]\)\./m);
    expect(files['server.pl']).toContain('prompt_get(greeting,');
    expect(files['server.pl']).toContain("resource_read('info://about'");
    expect(JSON.parse(files['package.json']!).dependencies).toHaveProperty('@rondo/logtalk-host');
  });

  it('gives the desktop client absolute paths, node included (issue 29)', () => {
    const config = JSON.parse(desktopConfig('calc', 'typescript', '/home/ada/calc', '/opt/node'));
    expect(config).toEqual({
      mcpServers: { calc: { command: '/opt/node', args: ['/home/ada/calc/dist/server.js'] } },
    });
    const prolog = JSON.parse(desktopConfig('calc', 'prolog', '/home/ada/calc'));
    expect(prolog.mcpServers.calc).toEqual({
      command: process.execPath,
      args: [
        '/home/ada/calc/node_modules/@rondo/logtalk-host/dist/main.js',
        '/home/ada/calc/server.pl',
      ],
    });
  });

  it('writes an .npmrc for a registry of ones own, none for the public one (issue 29)', () => {
    const local = scaffoldFiles({
      directory: '/tmp/calc',
      kind: 'typescript',
      registry: 'http://127.0.0.1:4873',
    });
    expect(local['.npmrc']).toMatch(/^@rondo:registry=http:\/\/127\.0\.0\.1:4873\/$/m);
    for (const registry of [undefined, 'https://registry.npmjs.org/'])
      expect(
        scaffoldFiles({
          directory: '/tmp/calc',
          kind: 'prolog',
          ...(registry ? { registry } : {}),
        }),
      ).not.toHaveProperty(['.npmrc']);
  });

  it('says what the docs say: skipLibCheck explained, no build step for Prolog, a module named after the project (issue 29)', () => {
    const typescript = scaffoldFiles({ directory: '/tmp/my-calc', kind: 'typescript' });
    expect(typescript['tsconfig.json']).toMatch(
      /\/\/ .*\n.*four times faster.*\n.*\n\s+"skipLibCheck": true/,
    );
    expect(typescript['README.md']).toContain('`npm run build`');
    const prolog = scaffoldFiles({ directory: '/tmp/my-calc', kind: 'prolog' });
    expect(prolog['README.md']).not.toContain('npm run build');
    expect(prolog['README.md']).toContain('no build step');
    expect(prolog['server.pl']).toMatch(/^:- module\(my_calc, \[\]\)\.$/m);
    expect(scaffoldFiles({ directory: '/tmp/1st', kind: 'prolog' })['server.pl']).toMatch(
      /^:- module\(mcp_1st, \[\]\)\.$/m,
    );
  });

  it('refuses a folder that gives no package name', () => {
    expect(packageNameOf('/tmp/Ok Name')).toBe('ok-name');
    expect(() => packageNameOf('/tmp/...')).toThrow(ScaffoldError);
  });
});

describe('writeScaffold', () => {
  it('writes into a new folder and refuses a folder that is not empty', () => {
    const parent = mkdtempSync(join(tmpdir(), 'create-rondo-'));
    try {
      const written = writeScaffold({ directory: join(parent, 'fresh'), kind: 'typescript' });
      expect(written).toContain('src/server.ts');
      expect(readFileSync(join(parent, 'fresh', 'README.md'), 'utf8')).toContain('"mcpServers"');
      writeFileSync(join(parent, 'taken'), '');
      expect(() => writeScaffold({ directory: parent, kind: 'prolog' })).toThrow(/not empty/);
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  });
});

describe('parseCreateArgs', () => {
  it('reads a folder and a kind given as a flag', () => {
    expect(parseCreateArgs(['calc', '--prolog'])).toEqual({
      directory: 'calc',
      kind: 'prolog',
      help: false,
    });
    expect(parseCreateArgs(['--kind', 'typescript'])).toMatchObject({
      directory: undefined,
      kind: 'typescript',
    });
    expect(parseCreateArgs([])).toMatchObject({ kind: undefined });
  });

  it('refuses an unknown kind, two kinds or two folders', () => {
    expect(() => parseCreateArgs(['--kind', 'rust'])).toThrow(UsageError);
    expect(() => parseCreateArgs(['--prolog', '--typescript'])).toThrow(/pick one kind/);
    expect(() => parseCreateArgs(['a', 'b'])).toThrow(/one folder/);
  });

  it('turns an unknown flag into a usage mistake of one sentence (issue 29)', () => {
    expect(() => parseCreateArgs(['x', '--prolgo'])).toThrow(
      new UsageError("Unknown option '--prolgo'"),
    );
    const main = join(dirname(createRequire(import.meta.url).resolve('create-rondo')), 'main.js');
    const run = spawnSync(process.execPath, [main, 'x', '--prolgo'], {
      cwd: tmpdir(),
      encoding: 'utf8',
    });
    expect(run.status).toBe(2);
    expect(run.stderr.split('\n')[0]).toBe("create-rondo: Unknown option '--prolgo'");
    expect(run.stderr).toContain('npm create rondo [folder]');
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });
});
