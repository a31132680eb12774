import { Client, inMemoryTransport } from '@rondo/client';
import { createServer, serve, structured } from '@rondo/server';
import { afterEach, describe, expect, it } from 'vitest';
import { parseGatewayCatalog } from '../src/catalogConfig.js';
import { parseConfig } from '../src/config.js';
import { createGateway } from '../src/gateway.js';

// Issue 45: the gateway configuration's catalog keys: tools derived from an entry's (`tools`),
// tool search over one entry or the whole gateway (`toolSearch`); a transform wrong whatever the
// tool is refused when the file is read, naming the entry and the tool.

/** What `structured` takes. */
type Structured = Parameters<typeof structured>[0];

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** A real upstream over HTTP whose `deploy` answers with the arguments it got. */
async function upstream(): Promise<string> {
  const server = createServer({ name: 'deployer', version: '1.0.0' })
    .tool(
      'deploy',
      {
        description: 'Deploy a service to an environment',
        input: {
          type: 'object',
          properties: {
            service: { type: 'string' },
            environment: { type: 'string', enum: ['staging', 'production'] },
            replicas: { type: 'integer', minimum: 1 },
          },
          required: ['service', 'environment'],
        },
      },
      (args) => structured({ got: args as Structured }),
    )
    .tool('rollback', { description: 'Roll a service back to its last release' }, () =>
      structured({ got: {} }),
    );
  const running = await serve(server, { transport: 'http', port: 0, quiet: true });
  closers.push(() => running.close());
  return running.url;
}

async function gatewayOf(config: object) {
  const text = JSON.stringify(config);
  const entries = parseConfig(text, 'servers.json', '.');
  const catalog = parseGatewayCatalog(text, 'servers.json', entries);
  const gateway = await createGateway(entries, { log: () => undefined, catalog });
  closers.push(() => gateway.server.close());
  const client = new Client({ transport: inMemoryTransport(gateway.endpoint), era: '2025-11-25' });
  await client.connect();
  closers.push(() => client.close());
  return client;
}

describe('gateway config: tools', () => {
  it('derives a tool whose renamed and hidden arguments reach the upstream with the right values', async () => {
    const url = await upstream();
    const client = await gatewayOf({
      mcpServers: {
        ops: {
          url,
          tools: {
            deploy: {
              name: 'deploy_staging',
              description: 'Deploy a service to staging',
              arguments: {
                service: { name: 'app' },
                environment: { hidden: true, value: 'staging' },
                replicas: { default: 2, schema: { type: 'integer', minimum: 1, maximum: 3 } },
              },
            },
          },
        },
      },
    });
    const names = (await client.listAllTools()).map((tool) => tool.name).sort();
    expect(names).toEqual(['ops_deploy_staging', 'ops_rollback']);
    const result = await client.callTool('ops_deploy_staging', { app: 'web' });
    expect(result.structuredContent).toEqual({
      got: { service: 'web', environment: 'staging', replicas: 2 },
    });
    expect((await client.callTool('ops_deploy_staging', { app: 'web', replicas: 9 })).isError).toBe(
      true,
    );
  });

  it('refuses a transform that is wrong whatever the tool, naming the entry and the tool', () => {
    const text = JSON.stringify({
      mcpServers: {
        ops: {
          url: 'http://127.0.0.1:1/mcp',
          tools: {
            deploy: { arguments: { replicas: { schema: { type: 'number', minimum: 'one' } } } },
          },
        },
      },
    });
    const entries = parseConfig(text, 'servers.json', '.');
    expect(() => parseGatewayCatalog(text, 'servers.json', entries)).toThrow(
      /^servers\.json: mcpServers\.ops\.tools\.deploy: tool transform of "ops_deploy": argument "replicas": invalid JSON Schema/,
    );
    const hidden = JSON.stringify({
      mcpServers: {
        ops: {
          url: 'http://127.0.0.1:1/mcp',
          tools: { deploy: { arguments: { environment: { hidden: true } } } },
        },
      },
    });
    expect(() => parseGatewayCatalog(hidden, 's.json', parseConfig(hidden, 's.json', '.'))).toThrow(
      's.json: mcpServers.ops.tools.deploy: tool transform of "ops_deploy": argument "environment" is hidden but has no value',
    );
    const unknownKey = JSON.stringify({
      toolSearch: { pinned: ['x'], extra: 1 },
      mcpServers: { ops: { url: 'http://127.0.0.1:1/mcp' } },
    });
    expect(() =>
      parseGatewayCatalog(unknownKey, 's.json', parseConfig(unknownKey, 's.json', '.')),
    ).toThrow(/^s\.json: toolSearch/);
  });

  it('refuses at load a transform that does not fit the upstream tool, naming it', async () => {
    const url = await upstream();
    const text = JSON.stringify({
      mcpServers: {
        ops: {
          url,
          tools: { deploy: { arguments: { environment: { hidden: true, value: 'moon' } } } },
        },
      },
    });
    const entries = parseConfig(text, 'servers.json', '.');
    const gateway = await createGateway(entries, {
      log: () => undefined,
      catalog: parseGatewayCatalog(text, 'servers.json', entries),
    });
    closers.push(() => gateway.server.close());
    const client = new Client({
      transport: inMemoryTransport(gateway.endpoint),
      era: '2026-07-28',
    });
    await expect(client.connect()).rejects.toThrow(
      /tool transform of "ops_deploy": argument "environment": value "moon" does not match/,
    );
  });
});

describe('gateway config: toolSearch', () => {
  it('puts one entry behind its own search, pinned tools listed, every tool callable', async () => {
    const url = await upstream();
    const client = await gatewayOf({
      mcpServers: {
        ops: { url, toolSearch: { pinned: ['rollback'] } },
        plain: { url, namespace: 'plain' },
      },
    });
    const names = (await client.listAllTools()).map((tool) => tool.name).sort();
    expect(names).toEqual([
      'ops_call_tool',
      'ops_get_tool_schemas',
      'ops_rollback',
      'ops_search_tools',
      'plain_deploy',
      'plain_rollback',
    ]);
    const found = await client.callTool('ops_search_tools', { query: 'deploy a service' });
    expect((found.structuredContent as { tools: { name: string }[] }).tools[0]?.name).toBe(
      'ops_deploy',
    );
    const direct = await client.callTool('ops_deploy', {
      service: 'api',
      environment: 'production',
    });
    expect(direct.structuredContent).toEqual({
      got: { service: 'api', environment: 'production' },
    });
  });

  it('puts the whole gateway behind search with "toolSearch": true at the top level', async () => {
    const url = await upstream();
    const client = await gatewayOf({ toolSearch: true, mcpServers: { a: { url }, b: { url } } });
    const names = (await client.listAllTools()).map((tool) => tool.name);
    expect(names).toEqual(['search_tools', 'get_tool_schemas', 'call_tool']);
    const found = await client.callTool('search_tools', { query: 'roll back a release', limit: 2 });
    expect(
      (found.structuredContent as { tools: { name: string }[] }).tools.map((t) => t.name).sort(),
    ).toEqual(['a_rollback', 'b_rollback']);
    const called = await client.callTool('call_tool', {
      name: 'b_deploy',
      arguments: { service: 's', environment: 'staging' },
    });
    expect(called.structuredContent).toEqual({ got: { service: 's', environment: 'staging' } });
  });
});
