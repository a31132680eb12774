import { legacyEra } from '@rondo/adapter-2025';
import { modernEra } from '@rondo/adapter-2026';
import { runtimeOf } from '@rondo/core/internal';
import { createEndpoint, createServer, type CatalogOptions } from '@rondo/core';
import { structured, type JsonObject } from '@rondo/protocol';
import { describe, expect, it } from 'vitest';
import { proxy } from '../src/index.js';
import { clientOf, closeAfterTest, endpointOf, memoryUpstream } from './support.js';

// Issue 45: catalog transforms over a proxied upstream: a derived tool's renamed and hidden
// arguments reach the upstream with the right values; tool search lists its meta-tools while
// every upstream tool stays callable by name.

/** A legacy upstream whose tools answer with the arguments they got. */
function upstream() {
  const echo = (args: unknown) => structured({ got: args as JsonObject });
  const server = createServer({ name: 'tickets', version: '1.0.0' })
    .tool(
      'create_ticket',
      {
        description: 'Create a support ticket in a queue',
        input: {
          type: 'object',
          properties: {
            queue: { type: 'string' },
            summary: { type: 'string' },
            severity: { type: 'integer', minimum: 1, maximum: 5 },
          },
          required: ['queue', 'summary', 'severity'],
        },
      },
      echo,
    )
    .tool('close_ticket', { description: 'Close a resolved ticket' }, echo);
  return endpointOf(server, 'legacy');
}

/** A gateway server over the upstream with `catalog`, served in memory to both eras. */
function gatewayWith(catalog: CatalogOptions) {
  const server = createServer({
    name: 'gateway',
    version: '1.0.0',
    catalog,
  }).provider(proxy(memoryUpstream(upstream()), { namespace: 't' }));
  closeAfterTest(() => server.close());
  return Object.assign(createEndpoint(server, { modern: modernEra(), legacy: legacyEra() }), {
    server,
  });
}

describe('catalog transforms over a proxied upstream', () => {
  it('sends renamed and hidden arguments to the upstream with the right values', async () => {
    const endpoint = gatewayWith({
      tools: {
        t_create_ticket: {
          name: 'report_outage',
          arguments: {
            queue: { hidden: true, value: 'ops' },
            summary: { name: 'what' },
            severity: { default: 1, schema: { type: 'integer', minimum: 1, maximum: 2 } },
          },
        },
      },
    });
    for (const era of ['2026-07-28', '2025-11-25'] as const) {
      const client = await clientOf(endpoint, era);
      const names = (await client.listAllTools()).map((t) => t.name).sort();
      expect(names).toEqual(['report_outage', 't_close_ticket']);
      const result = await client.callTool('report_outage', { what: 'db down' });
      expect(result.structuredContent).toEqual({
        got: { queue: 'ops', summary: 'db down', severity: 1 },
      });
      const refused = await client.callTool('report_outage', { what: 'x', severity: 4 });
      expect(refused.isError).toBe(true);
      await client.close();
    }
  });

  it('lists the meta-tools of tool search and keeps each upstream tool callable', async () => {
    const endpoint = gatewayWith({ toolSearch: true });
    const client = await clientOf(endpoint, '2026-07-28');
    // The upstream's tools arrive once it is connected: wait for them through a direct call.
    const closed = await client.callTool('t_close_ticket', { id: 7 });
    expect(closed.structuredContent).toEqual({ got: { id: 7 } });
    const names = (await client.listAllTools()).map((t) => t.name);
    expect(names).toEqual(['search_tools', 'get_tool_schemas', 'call_tool']);
    const found = await client.callTool('search_tools', { query: 'open a support ticket' });
    expect((found.structuredContent as { tools: { name: string }[] }).tools[0]?.name).toBe(
      't_create_ticket',
    );
    await client.close();
  });

  it('refuses at load a transform that does not fit a proxied tool, naming it', async () => {
    const { server } = gatewayWith({
      tools: { t_create_ticket: { arguments: { severity: { hidden: true, value: 9 } } } },
    });
    await expect(runtimeOf(server).ready()).rejects.toThrow(
      'tool transform of "t_create_ticket": argument "severity": value 9 does not match its schema',
    );
  });
});
