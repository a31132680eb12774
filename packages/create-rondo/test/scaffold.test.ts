import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
    expect(JSON.parse(files['tsconfig.json']!).compilerOptions.strict).toBe(true);
    for (const piece of ['.tool(', '.prompt(', '.resource(', "transport: 'stdio'"])
      expect(files['src/server.ts']).toContain(piece);
    expect(files['src/server.test.ts']).toContain('@modelcontextprotocol/sdk/client/stdio.js');
  });

  it('makes a Prolog project served by rondo-logtalk', () => {
    const files = scaffoldFiles({ directory: '/tmp/birds', kind: 'prolog' });
    expect(files['server.pl']).toMatch(/^tools\(\[tool\(add, add, 3\)\]\)\./m);
    expect(files['server.pl']).toContain('prompt_get(greeting,');
    expect(files['server.pl']).toContain("resource_read('info://about'");
    expect(JSON.parse(files['package.json']!).dependencies).toHaveProperty('@rondo/logtalk-host');
  });

  it('gives the desktop client absolute paths', () => {
    const config = JSON.parse(desktopConfig('calc', 'typescript', '/home/ada/calc'));
    expect(config).toEqual({
      mcpServers: { calc: { command: 'node', args: ['/home/ada/calc/dist/server.js'] } },
    });
    const prolog = JSON.parse(desktopConfig('calc', 'prolog', '/home/ada/calc'));
    expect(prolog.mcpServers.calc.command).toBe('/home/ada/calc/node_modules/.bin/rondo-logtalk');
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
});
