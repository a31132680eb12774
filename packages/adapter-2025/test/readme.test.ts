import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { JsonRpcRequest } from '@rondo/protocol';
import { MemoryConnection } from '@rondo/test-support/memoryConnection';
import { endpoint } from './fixtures/readmeExample.js';
import { waitFor } from './support/legacyClient.js';

describe('the README example', () => {
  it('is the file the test runs, verbatim', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const example = readFileSync(new URL('./fixtures/readmeExample.ts', import.meta.url), 'utf8');
    expect(readme).toContain(example.trim());
  });

  it('greets a 2025 client through a real elicitation', async () => {
    const client = new MemoryConnection(endpoint);
    const init = await client.request('initialize', {
      protocolVersion: '2025-06-18',
      capabilities: { elicitation: {} },
      clientInfo: { name: 'c', version: '1' },
    });
    expect(init).toMatchObject({
      result: { protocolVersion: '2025-06-18', serverInfo: { name: 'greeter' } },
    });
    client.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    for (const tool of ['greet', 'whoami']) {
      const call = client.send({
        jsonrpc: '2.0',
        id: tool,
        method: 'tools/call',
        params: { name: tool },
      });
      const ask = await waitFor(() =>
        call.sent.find(
          (m): m is JsonRpcRequest => 'method' in m && m.method === 'elicitation/create',
        ),
      );
      client.send({
        jsonrpc: '2.0',
        id: ask.id,
        result: { action: 'accept', content: { name: 'Ada' } },
      });
      expect(JSON.stringify(await call.ended)).toMatch(/Hello, Ada!|You are Ada/);
    }
    client.connection.close();
  });
});
