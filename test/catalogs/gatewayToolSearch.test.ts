import { staticTokenVerifier } from '@rondo/auth';
import { Client, httpTransport, inMemoryTransport } from '@rondo/client';
import { serve } from '@rondo/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';
import { createGateway, parseConfig, parseGatewayCatalog, type Gateway } from '@rondo/gateway';
import { QUERIES, SERVICES, toolsOf, upstreamOf } from './largeCatalog.js';

// Issue 45, done when 1: a gateway fronting 1,000 tools with `"toolSearch": true` lists a catalog
// of at most 5% of the full list's bytes; 27 of 30 requests written from the descriptions find
// their tool among the first three results; every tool stays callable by name; a caller without
// a scope never sees a tool that needs it in results.

const SCOPED = ['billing_delete_invoice', 'cloud_delete_bucket', 'hr_get_payslip'];
const ALL = SERVICES.flatMap(toolsOf).map((tool) => tool.name);

const closers: (() => Promise<unknown>)[] = [];
let searched: Gateway;
let full: Gateway;
let url: string;

beforeAll(async () => {
  const groups = [
    SERVICES.slice(0, 7),
    SERVICES.slice(7, 13),
    SERVICES.slice(13, 19),
    SERVICES.slice(19),
  ];
  const urls: string[] = [];
  for (const [index, services] of groups.entries()) {
    const running = await serve(upstreamOf(`upstream${index}`, services), {
      transport: 'http',
      port: 0,
      quiet: true,
    });
    closers.push(() => running.close());
    urls.push(running.url);
  }
  const config = (toolSearch: boolean) =>
    JSON.stringify({
      toolSearch,
      mcpServers: Object.fromEntries(
        urls.map((upstream, index) => [
          `up${index}`,
          {
            url: upstream,
            namespace: '',
            // Derived in place: the same tool, needing a scope.
            tools: Object.fromEntries(SCOPED.map((name) => [name, { scopes: ['admin'] }])),
          },
        ]),
      ),
    });
  const build = async (toolSearch: boolean) => {
    const text = config(toolSearch);
    const entries = parseConfig(text, 'servers.json', '.');
    const gateway = await createGateway(entries, {
      log: () => undefined,
      catalog: parseGatewayCatalog(text, 'servers.json', entries),
    });
    closers.push(() => gateway.server.close());
    return gateway;
  };
  searched = await build(true);
  full = await build(false);
  const auth = {
    resource: 'http://127.0.0.1/mcp',
    authorizationServers: ['https://auth.example'],
    verifyToken: staticTokenVerifier({
      audience: 'http://127.0.0.1/mcp',
      tokens: {
        reader: { subject: 'rita', scopes: ['read'] },
        admin: { subject: 'ada', scopes: ['read', 'admin'] },
      },
    }),
  };
  const running = await serve(searched.endpoint, { transport: 'http', port: 0, auth, quiet: true });
  closers.push(() => running.close());
  url = running.url;
}, scaled(120_000));

afterAll(async () => {
  for (const close of closers.reverse()) await close();
});

async function clientAs(token: string): Promise<Client> {
  const client = new Client({
    transport: httpTransport({ url, headers: { authorization: `Bearer ${token}` } }),
    era: '2026-07-28',
  });
  await client.connect();
  closers.push(() => client.close());
  return client;
}

/** Waits until a tool of every upstream answers (the gateway connects to them in the background). */
async function upstreamsReady(client: Client): Promise<void> {
  const probes = [
    'calendar_list_event',
    'hr_list_employee',
    'database_list_table',
    'legal_list_contract',
  ];
  const deadline = Date.now() + 60_000;
  for (const probe of probes) {
    for (;;) {
      const result = await client.callTool(probe, {}).catch(() => undefined);
      if (result && !result.isError) break;
      if (Date.now() > deadline) throw new Error(`upstream of ${probe} never came`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

async function search(client: Client, query: string, limit = 3): Promise<string[]> {
  const result = await client.callTool('search_tools', { query, limit });
  return (result.structuredContent as { tools: { name: string }[] }).tools.map((tool) => tool.name);
}

describe('tool search over 1,000 tools through the gateway', () => {
  it(
    'lists a catalog of at most 5% of the bytes of the full list',
    async () => {
      const reader = await clientAs('reader');
      await upstreamsReady(reader);
      const listed = await reader.listAllTools();
      expect(listed.map((tool) => tool.name)).toEqual([
        'search_tools',
        'get_tool_schemas',
        'call_tool',
      ]);
      const whole = new Client({ transport: inMemoryTransport(full.endpoint), era: '2026-07-28' });
      await whole.connect();
      const everything = await whole.listAllTools();
      await whole.close();
      expect(everything).toHaveLength(1000);
      const listedBytes = Buffer.byteLength(JSON.stringify(listed));
      const fullBytes = Buffer.byteLength(JSON.stringify(everything));
      console.log(
        `tool search: listed ${listedBytes} bytes, full list ${fullBytes} bytes (${((100 * listedBytes) / fullBytes).toFixed(2)}%)`,
      );
      expect(listedBytes).toBeLessThanOrEqual(fullBytes * 0.05);
    },
    scaled(120_000),
  );

  it(
    'finds the intended tool among the first three for at least 27 of 30 requests',
    async () => {
      const reader = await clientAs('reader');
      await upstreamsReady(reader);
      const misses: string[] = [];
      for (const { query, tool } of QUERIES) {
        const found = await search(reader, query);
        if (!found.includes(tool)) misses.push(`${query} -> ${found.join(', ')} (wanted ${tool})`);
      }
      console.log(
        `tool search: ${QUERIES.length - misses.length} of ${QUERIES.length} in the top 3${misses.length ? `; missed:\n${misses.join('\n')}` : ''}`,
      );
      expect(QUERIES.length - misses.length).toBeGreaterThanOrEqual(27);
    },
    scaled(120_000),
  );

  it(
    'never shows a caller a tool whose scope it lacks, and shows it to one that has it',
    async () => {
      const reader = await clientAs('reader');
      const admin = await clientAs('admin');
      await upstreamsReady(reader);
      const queries = [
        ...QUERIES.map((q) => q.query),
        'delete an invoice in billing',
        'delete a bucket in the cloud',
        'get a payslip',
      ];
      for (const query of queries) {
        const found = await search(reader, query, 50);
        expect(found.filter((name) => SCOPED.includes(name))).toEqual([]);
      }
      expect(await search(admin, 'delete an invoice in billing')).toContain(
        'billing_delete_invoice',
      );
      expect(await search(admin, 'get a payslip from hr')).toContain('hr_get_payslip');
      const schemas = await reader.callTool('get_tool_schemas', { names: SCOPED });
      expect(schemas.structuredContent).toEqual({ tools: [], unknown: SCOPED });
    },
    scaled(120_000),
  );

  it(
    'keeps every one of the 1,000 tools callable by its name',
    async () => {
      const reader = await clientAs('reader');
      const admin = await clientAs('admin');
      await upstreamsReady(reader);
      const failed: string[] = [];
      let next = 0;
      const worker = async () => {
        while (next < ALL.length) {
          const name = ALL[next++]!;
          const client = SCOPED.includes(name) ? admin : reader;
          const result = await client.callTool(name, {});
          if (result.isError || (result.structuredContent as { tool?: string }).tool !== name)
            failed.push(name);
        }
      };
      await Promise.all(Array.from({ length: 8 }, worker));
      expect(failed).toEqual([]);
      // Without the scope, a direct call is refused (the step-up answer), never run.
      await expect(reader.callTool('billing_delete_invoice', {})).rejects.toThrow();
    },
    scaled(300_000),
  );
});
