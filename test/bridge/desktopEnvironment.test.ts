import { spawnSync } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';
import { hostStdioParams } from './support/birds.js';
import { bridgeFixture, logtalkHomeForTests, requireBuiltHost } from './support/paths.js';

// Issue 17: a desktop MCP client starts its servers with a minimal environment (no LANG, often
// no LOGTALKHOME). A provider must behave as it does in a full shell, and a Logtalk that cannot
// be found must be reported with how to fix the client's config.

const home = logtalkHomeForTests();

/** Calls one tool over stdio with the official client, rondo-logtalk started with `env` only. */
async function callWith(env: Record<string, string>, file: string, tool: string, args = {}) {
  const params = hostStdioParams([file]);
  const transport = new StdioClientTransport({ ...params, env });
  const client = new Client({ name: 'desktop-env', version: '1.0.0' });
  await client.connect(transport);
  try {
    const result = await client.callTool({ name: tool, arguments: args });
    return result.structuredContent as Record<string, string>;
  } finally {
    await client.close();
  }
}

const minimal = { PATH: process.env.PATH ?? '' };

describe('rondo-logtalk started by a desktop client', { timeout: scaled(60_000) }, () => {
  it('reads UTF-8 sources and converts case the same with no LANG as with a UTF-8 locale', async () => {
    const file = bridgeFixture('locale.pl');
    for (const env of [minimal, { ...minimal, LANG: 'C.UTF-8' }, { ...minimal, LC_ALL: 'C' }]) {
      expect(await callWith(env, file, 'greeting')).toEqual({ Loud: 'GRÜß' });
      expect(await callWith(env, file, 'shout', { Text: 'grüß' })).toEqual({ Loud: 'GRÜß' });
    }
  });

  it('serves a Logtalk object with only PATH and LOGTALKHOME, upper-casing the same', async () => {
    const env = { ...minimal, LOGTALKHOME: home };
    expect(
      await callWith(env, bridgeFixture('environment.lgt'), 'shout', { Text: 'grüß' }),
    ).toEqual({ Loud: 'GRÜß' });
  });

  it('finds Logtalk through --logtalk-home when the client passes no LOGTALKHOME', async () => {
    const params = hostStdioParams(['--logtalk-home', home, bridgeFixture('environment.lgt')]);
    const transport = new StdioClientTransport({ ...params, env: minimal });
    const client = new Client({ name: 'desktop-env', version: '1.0.0' });
    await client.connect(transport);
    const tools = await client.listTools();
    await client.close();
    expect(tools.tools.map((t) => t.name)).toEqual(['user_dir', 'shout']);
  });

  it('exits 1 saying how to fix the client config when LOGTALKHOME is not a Logtalk', () => {
    const file = bridgeFixture('environment.lgt');
    const run = spawnSync(process.execPath, [requireBuiltHost(), file], {
      env: { ...minimal, LOGTALKHOME: '/nowhere/logtalk' },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(
      `rondo-logtalk: ${file} is a Logtalk file, but LOGTALKHOME (/nowhere/logtalk) is not a Logtalk 3 distribution`,
    );
    expect(run.stderr).toContain('"env": {"LOGTALKHOME"');
  });
});
