import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { fixtureServerParams } from './support/fixture.js';
import { tapTransport } from './support/clientTap.js';
import { textOf } from './support/wire.js';

// The issues name the command `pnpm fixture --transport stdio`: run exactly that once, to prove the
// script runner adds nothing to stdout either.

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

describe('pnpm fixture --transport stdio', { timeout: scaled(30_000) }, () => {
  it('serves a client with nothing but JSON-RPC on stdout', async () => {
    const { env } = fixtureServerParams();
    const transport = new StdioClientTransport({
      command: 'pnpm',
      args: ['fixture', '--transport', 'stdio'],
      cwd: REPO_ROOT,
      env: { ...env, HOME: process.env.HOME ?? '' },
      stderr: 'pipe',
    });
    const tap = tapTransport(transport);
    const client = new Client({ name: 'pnpm-script-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const result = await client.callTool({ name: 'test_simple_text', arguments: {} });
      expect(textOf(result)).toBe('This is a simple text response for testing.');
      expect(tap.received.every((message) => message.jsonrpc === '2.0')).toBe(true);
    } finally {
      await client.close();
    }
  });
});
