import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';
import { Client as ModernClient } from '@modelcontextprotocol/client';
import { StdioClientTransport as ModernStdio } from '@modelcontextprotocol/client/stdio';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as LegacyStdio } from '@modelcontextprotocol/sdk/client/stdio.js';
import { parseFixtureArgs } from '@rondo/conformance-fixture';
import { firstTypeScriptBlock, transpileExample } from '@rondo/test-support/readmeExample';
import { modernMeta } from './support/fixture.js';
import { textOf } from './support/wire.js';

// The README examples of @rondo/transport-stdio and the conformance fixture, run as real programs.

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const readmePath = (folder: string) => `${REPO_ROOT}${folder}/README.md`;
const readme = (folder: string) => readFileSync(readmePath(folder), 'utf8');
const shellBlocks = (text: string) =>
  [...text.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1] ?? '');

/** Spawn parameters that run a README program from the repository root, as a user's file would. */
const exampleParams = (code: string) => ({
  command: process.execPath,
  args: ['--input-type=module', '-e', transpileExample(code)],
  cwd: REPO_ROOT,
  env: {
    PATH: process.env.PATH ?? '',
    RONDO_STATE_KEY: 'readme-key-0123456789abcdef0123456789abc',
  },
  stderr: 'pipe' as const,
});

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
}, scaled(30_000));

describe('the @rondo/transport-stdio README', { timeout: scaled(30_000) }, () => {
  const example = firstTypeScriptBlock(readmePath('packages/transport-stdio'));

  it('has a stdio server example', () => {
    expect(example).toContain('serveStdio(endpoint)');
  });

  it('serves a legacy client (the v1 SDK)', async () => {
    const client = new LegacyClient({ name: 'readme-v1', version: '1.0.0' });
    await client.connect(new LegacyStdio(exampleParams(example)));
    closers.push(() => client.close());
    const result = await client.callTool({ name: 'greet', arguments: { name: 'README' } });
    expect(textOf(result)).toBe('Hello, README!');
  });

  it('serves a modern client (the v2 SDK pinned to 2026-07-28)', async () => {
    const client = new ModernClient(
      { name: 'readme-v2', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await client.connect(new ModernStdio(exampleParams(example)));
    closers.push(() => client.close());
    const result = await client.callTool({ name: 'greet', arguments: { name: 'modern README' } });
    expect(textOf(result)).toBe('Hello, modern README!');
  });
});

describe('the conformance fixture README', { timeout: scaled(30_000) }, () => {
  const text = readme('apps/conformance-fixture');

  it('shows only command lines the CLI accepts', () => {
    const commands = shellBlocks(text).flatMap((block) =>
      block.split('\n').filter((l) => l.startsWith('pnpm fixture')),
    );
    expect(commands.length).toBeGreaterThanOrEqual(3);
    for (const command of commands) {
      expect(() => parseFixtureArgs(command.split(/\s+/).slice(2))).not.toThrow();
    }
  });

  it('runs its program example on stdio and exits 0 at end of input', async () => {
    const params = exampleParams(firstTypeScriptBlock(readmePath('apps/conformance-fixture')));
    const child = spawn(params.command, params.args, { cwd: params.cwd, env: params.env });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    const call = { _meta: modernMeta(), name: 'test_simple_text' };
    child.stdin.end(
      `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: call })}\n`,
    );
    expect(await exited).toBe(0);
    const [answer] = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { result: unknown });
    expect(textOf(answer?.result)).toBe('This is a simple text response for testing.');
  });
});
