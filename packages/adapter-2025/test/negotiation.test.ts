import { afterEach, describe, expect, it } from 'vitest';
import { createServer } from '@rondo/core';
import { LegacyTestClient, checkAndCloseClients } from './support/legacyClient.js';

function demoServer() {
  return createServer({
    name: 'demo',
    version: '1.2.3',
    title: 'Demo',
    description: 'A demo server',
    websiteUrl: 'https://example.com',
    icons: [{ src: 'https://example.com/icon.png', mimeType: 'image/png' }],
    instructions: 'Use the echo tool.',
    log: () => {},
  })
    .tool(
      'echo',
      { description: 'echo', icons: [{ src: 'https://example.com/echo.png' }] },
      () => 'hi',
    )
    .prompt('greet', { description: 'greet' }, () => ({ kind: 'messages', messages: [] }))
    .resource('test://a', { name: 'a' }, (uri) => ({
      kind: 'contents',
      contents: [{ kind: 'text_content', uri, text: 'A' }],
    }));
}

afterEach(checkAndCloseClients);

describe('initialize negotiation', () => {
  it('echoes 2025-11-25 and describes the server with icons, description and websiteUrl', async () => {
    const client = new LegacyTestClient(demoServer());
    const result = await client.call('initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'c', version: '1' },
    });
    expect(result.protocolVersion).toBe('2025-11-25');
    expect(result.serverInfo).toEqual({
      name: 'demo',
      version: '1.2.3',
      title: 'Demo',
      description: 'A demo server',
      websiteUrl: 'https://example.com',
      icons: [{ src: 'https://example.com/icon.png', mimeType: 'image/png' }],
    });
    expect(result.instructions).toBe('Use the echo tool.');
    // No completion is registered: no completions capability (issue 17).
    expect(result.capabilities).toEqual({
      logging: {},
      tools: { listChanged: true },
      prompts: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
    });
  });

  it('echoes 2025-06-18 and sends only the members that revision knows', async () => {
    const client = new LegacyTestClient(demoServer());
    const result = await client.call('initialize', {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'c', version: '1' },
    });
    expect(result.protocolVersion).toBe('2025-06-18');
    expect(result.serverInfo).toEqual({ name: 'demo', version: '1.2.3', title: 'Demo' });
    const tools = await client.call('tools/list');
    expect(tools.tools).toEqual([
      { name: 'echo', description: 'echo', inputSchema: { type: 'object' } },
    ]);
  });

  it('answers an unknown version with the newest legacy revision', async () => {
    const client = new LegacyTestClient(demoServer());
    const result = await client.call('initialize', {
      protocolVersion: '2024-01-01',
      capabilities: {},
      clientInfo: { name: 'c', version: '1' },
    });
    expect(result.protocolVersion).toBe('2025-11-25');
  });

  it('offers only the configured revisions', async () => {
    const client = new LegacyTestClient(demoServer(), { era: { revisions: ['2025-06-18'] } });
    const result = await client.call('initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'c', version: '1' },
    });
    expect(result.protocolVersion).toBe('2025-06-18');
  });

  it('answers ping before initialize and refuses other requests with -32600', async () => {
    const client = new LegacyTestClient(demoServer());
    expect(await client.request('ping')).toMatchObject({ result: {} });
    const refused = await client.request('tools/list');
    expect(refused).toMatchObject({ error: { code: -32600 } });
    expect(JSON.stringify(refused)).toContain('send initialize before tools/list');
    expect(client.memory.connection.stateful).toBe(false);
  });

  it('becomes stateful after initialize and refuses a second initialize', async () => {
    const client = await LegacyTestClient.open(demoServer());
    expect(client.memory.connection.stateful).toBe(true);
    const again = await client.request('initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'c', version: '1' },
    });
    expect(again).toMatchObject({
      error: { code: -32600, message: 'Invalid Request: the session is already initialized' },
    });
  });

  it('refuses an initialize without a protocolVersion with -32602', async () => {
    const client = new LegacyTestClient(demoServer());
    expect(await client.request('initialize', { capabilities: {} })).toMatchObject({
      error: { code: -32602 },
    });
    expect(client.memory.connection.stateful).toBe(false);
  });

  it('rejects methods the era does not know with -32601', async () => {
    const client = await LegacyTestClient.open(demoServer());
    expect(await client.request('server/discover')).toMatchObject({ error: { code: -32601 } });
    expect(await client.request('tasks/list')).toMatchObject({ error: { code: -32601 } });
  });
});
