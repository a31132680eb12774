import { afterEach, describe, expect, it } from 'vitest';
import { createServer } from '@rondo/core';
import { ModernClient, VERSION } from './support/modernClient.js';
import { buildTestServer } from './support/testServer.js';

const clients: ModernClient[] = [];
function track(created: ModernClient): ModernClient {
  clients.push(created);
  return created;
}
afterEach(() => {
  for (const used of clients.splice(0)) used.expectValidWire();
});

const SERVER_INFO = 'io.modelcontextprotocol/serverInfo';

describe('server/discover', () => {
  it('announces versions, capabilities derived from the server, instructions and a cache policy', async () => {
    const c = track(
      new ModernClient(buildTestServer(), { extensions: { 'example.com/thing': {} } }),
    );
    const result = await c.result('server/discover');
    expect(result).toMatchObject({
      resultType: 'complete',
      supportedVersions: [VERSION],
      capabilities: {
        tools: { listChanged: true },
        prompts: { listChanged: true },
        resources: { listChanged: true, subscribe: true },
        completions: {},
        logging: {},
        extensions: { 'example.com/thing': {} },
      },
      instructions: 'Use the tools.',
      ttlMs: 0,
      cacheScope: 'private',
    });
    expect(result._meta[SERVER_INFO]).toEqual({ name: 'adapter-2026-test', version: '1.2.3' });
    expect(result.serverInfo).toBeUndefined();
  });

  it('leaves out what the server does not offer, and answers its methods with -32601', async () => {
    const server = createServer({ name: 'tools-only', version: '1.0.0', log: () => {} });
    server.tool('one', { description: 'One tool.' }, () => 'one');
    const c = track(new ModernClient(server));
    const { capabilities } = await c.result('server/discover');
    expect(Object.keys(capabilities).sort()).toEqual(['logging', 'tools']);
    expect((await c.error('prompts/list')).code).toBe(-32601);
    const complete = { ref: { type: 'ref/prompt', name: 'p' }, argument: { name: 'a', value: '' } };
    expect((await c.error('completion/complete', complete)).code).toBe(-32601);
    expect((await c.error('resources/read', { uri: 'x://y' })).code).toBe(-32601);
    expect((await c.result('tools/list')).tools).toHaveLength(1);
  });

  it('uses the cache policy the server sets', async () => {
    const server = buildTestServer();
    server.cachePolicy('server/discover', { ttlMs: 3_600_000, cacheScope: 'public' });
    server.cachePolicy('resources/read', (uri) =>
      uri === 'test://static' ? { ttlMs: 5000, cacheScope: 'public' } : undefined,
    );
    const c = track(new ModernClient(server));
    expect(await c.result('server/discover')).toMatchObject({
      ttlMs: 3_600_000,
      cacheScope: 'public',
    });
    expect(await c.result('resources/read', { uri: 'test://static' })).toMatchObject({
      ttlMs: 5000,
      cacheScope: 'public',
    });
    expect(await c.result('resources/read', { uri: 'test://items/7' })).toMatchObject({
      ttlMs: 0,
      cacheScope: 'private',
    });
  });
});

describe('results', () => {
  it('carry resultType and the serverInfo _meta on every result, and caching fields on lists and reads', async () => {
    const c = track(new ModernClient(buildTestServer()));
    const cacheable = ['tools/list', 'prompts/list', 'resources/list', 'resources/templates/list'];
    for (const method of cacheable) {
      const result = await c.result(method);
      expect(result).toMatchObject({ resultType: 'complete', ttlMs: 0, cacheScope: 'private' });
      expect(result._meta[SERVER_INFO].name).toBe('adapter-2026-test');
    }
    const read = await c.result('resources/read', { uri: 'test://items/42' });
    expect(read).toMatchObject({
      resultType: 'complete',
      ttlMs: 0,
      contents: [{ text: '{"id":"42"}' }],
    });
    const prompt = await c.result('prompts/get', { name: 'with_args', arguments: { a: 'x' } });
    expect(prompt).toMatchObject({
      resultType: 'complete',
      messages: [{ role: 'user', content: { text: 'a=x' } }],
    });
    expect(prompt.ttlMs).toBeUndefined();
    const completion = await c.result('completion/complete', {
      ref: { type: 'ref/prompt', name: 'with_args' },
      argument: { name: 'a', value: 'a' },
    });
    expect(completion).toMatchObject({
      resultType: 'complete',
      completion: { values: ['alpha', 'apple'] },
    });
    const tool = await c.result('tools/call', { name: 'observe', arguments: {} });
    expect(tool._meta[SERVER_INFO]).toBeDefined();
  });

  it('lists tools in a deterministic order, page by page with a cursor', async () => {
    const c = track(new ModernClient(buildTestServer({ pageSize: 4 })));
    const names: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await c.result('tools/list', cursor === undefined ? {} : { cursor });
      names.push(...page.tools.map((tool: { name: string }) => tool.name));
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    expect(names.slice(0, 3)).toEqual(['greet', 'three_rounds', 'multiple_inputs']);
    expect(new Set(names).size).toBe(names.length);
    const again = await c.result('tools/list');
    expect(again.tools.map((tool: { name: string }) => tool.name)).toEqual(names.slice(0, 4));
    expect((await c.error('tools/list', { cursor: 'bogus' })).code).toBe(-32602);
  });

  it('lists the x-mcp-header annotations as registered', async () => {
    const c = track(new ModernClient(buildTestServer()));
    const { tools } = await c.result('tools/list', {}, {});
    const regional = tools.find((tool: { name: string }) => tool.name === 'regional');
    expect(regional.inputSchema.properties.region['x-mcp-header']).toBe('Region');
  });

  it('rejects malformed completion and prompt params with -32602', async () => {
    const c = track(new ModernClient(buildTestServer()));
    expect(
      (
        await c.error('completion/complete', {
          ref: { type: 'ref/other' },
          argument: { name: 'a', value: '' },
        })
      ).code,
    ).toBe(-32602);
    expect(
      (await c.error('completion/complete', { ref: { type: 'ref/prompt', name: 'with_args' } }))
        .code,
    ).toBe(-32602);
    expect((await c.error('prompts/get', { name: 'with_args', arguments: { a: 1 } })).code).toBe(
      -32602,
    );
    expect((await c.error('prompts/get', { name: 'with_args' })).code).toBe(-32602);
  });
});
