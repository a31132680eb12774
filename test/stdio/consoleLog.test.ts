import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';

// Issue 29: a console.log in a handler went to stdout between protocol frames, and the client
// reported invalid JSON. While Rondo serves on stdout, the console writes to stderr.

const CHATTY = fileURLToPath(new URL('./support/chattyServer.mjs', import.meta.url));

/** Connects the official v1 SDK client to the chatty server; collects its stderr and client errors. */
async function connect(consoleMode: 'default' | 'keep') {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CHATTY],
    env: {
      PATH: process.env.PATH ?? '',
      CONSOLE: consoleMode,
      RONDO_STATE_KEY: 'console-log-test-key-0123456789abcdef012',
    },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const client = new Client({ name: 'console-test', version: '1.0.0' });
  const errors: Error[] = [];
  client.onerror = (error) => errors.push(error);
  await client.connect(transport);
  return { client, errors, stderr: () => stderr };
}

describe('issue 29: console output from a handler on stdio', { timeout: scaled(60_000) }, () => {
  it('goes to stderr: the official v1 client gets clean frames and the result', async () => {
    const { client, errors, stderr } = await connect('default');
    try {
      const result = await client.callTool({ name: 'chat', arguments: {} });
      expect(result.content).toEqual([{ type: 'text', text: 'said' }]);
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['chat']);
    } finally {
      await client.close();
    }
    expect(errors).toEqual([]);
    expect(stderr()).toContain('chat called');
    expect(stderr()).toContain('a debug line');
    expect(stderr()).toContain('nested');
  });

  it('with consoleToStderr: false, stays on stdout (where the client sees a broken frame)', async () => {
    const { client, errors } = await connect('keep');
    try {
      await client.callTool({ name: 'chat', arguments: {} });
    } finally {
      await client.close();
    }
    expect(errors.map((error) => error.message).join('\n')).toMatch(/JSON|Unexpected token/);
  });
});
