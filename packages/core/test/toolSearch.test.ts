import { runtimeOf } from '@rondo/core/internal';
import { describe, expect, it } from 'vitest';
import { text, type JsonObject } from '@rondo/protocol';
import { createServer, requireScopes, ToolSearchIndex, type RondoServer } from '@rondo/core';
import { testContext } from './testContext.js';

// Issue 45, tool search: the listed catalog is the meta-tools and the pinned tools; search ranks
// what the caller may see and call; every tool stays callable by its name, also through a mount.

const quiet = { log: () => undefined };
const reader = testContext({ principal: { id: 'r', scopes: ['read'] } });
const admin = testContext({ principal: { id: 'a', scopes: ['read', 'admin'] } });

function tools(options: { pinned?: string[]; prefix?: string } = {}): RondoServer {
  return createServer({ name: 'ops', version: '1.0.0', ...quiet, catalog: { toolSearch: options } })
    .tool(
      'create_issue',
      {
        description: 'Open a new issue in a repository',
        input: {
          type: 'object',
          properties: { repo: { type: 'string' }, title: { type: 'string' } },
        },
      },
      (a) => text(`issue ${String(a.title)}`),
    )
    .tool(
      'list_pull_requests',
      { description: 'List the open pull requests of a repository' },
      () => text('prs'),
    )
    .tool('send_email', { description: 'Send an email message to a recipient' }, () => text('sent'))
    .tool(
      'drop_database',
      { description: 'Delete a database and all its tables', scopes: ['admin'] },
      () => text('dropped'),
    )
    .tool(
      'secret_report',
      { description: 'The quarterly report of the database', visible: requireScopes('admin') },
      () => text('report'),
    );
}

async function run(server: RondoServer, name: string, args: JsonObject, ctx = reader) {
  const runtime = runtimeOf(server);
  await runtime.ready();
  return runtime.callTool(name, args, ctx);
}

function found(outcome: unknown): string[] {
  const value = outcome as { result: { structured: { tools: { name: string }[] } } };
  return value.result.structured.tools.map((tool) => tool.name);
}

describe('tool search', () => {
  it('lists the meta-tools and the pinned tools only, and keeps every tool callable by name', async () => {
    const server = tools({ pinned: ['send_email'] });
    await runtimeOf(server).ready();
    expect(runtimeOf(server).catalog.tools.map((e) => e.definition.name)).toEqual([
      'send_email',
      'search_tools',
      'get_tool_schemas',
      'call_tool',
    ]);
    expect(await run(server, 'create_issue', { title: 'x' })).toEqual({
      kind: 'complete',
      result: { kind: 'text', text: 'issue x' },
    });
    expect(await run(server, 'call_tool', { name: 'list_pull_requests' })).toEqual({
      kind: 'complete',
      result: { kind: 'text', text: 'prs' },
    });
  });

  it('ranks by what a tool does, over names, descriptions and argument names', async () => {
    const server = tools();
    expect(
      found(await run(server, 'search_tools', { query: 'open a bug report in a repo' }))[0],
    ).toBe('create_issue');
    expect(
      found(await run(server, 'search_tools', { query: 'which pull requests are open?' }))[0],
    ).toBe('list_pull_requests');
    expect(found(await run(server, 'search_tools', { query: 'mail someone', limit: 1 }))).toEqual(
      [],
    );
    expect(found(await run(server, 'search_tools', { query: 'emails', limit: 1 }))).toEqual([
      'send_email',
    ]);
  });

  it('never shows a caller a tool it may not see or lacks a scope for', async () => {
    const server = tools();
    expect(found(await run(server, 'search_tools', { query: 'database' }))).toEqual([]);
    expect(found(await run(server, 'search_tools', { query: 'database' }, admin)).sort()).toEqual([
      'drop_database',
      'secret_report',
    ]);
    const schemas = await run(server, 'get_tool_schemas', {
      names: ['secret_report', 'send_email'],
    });
    expect(schemas).toMatchObject({
      result: {
        structured: {
          tools: [{ name: 'send_email', inputSchema: { type: 'object' } }],
          unknown: ['secret_report'],
        },
      },
    });
    // Hidden: unknown, as a direct call finds it; scoped: the refusal names the scope (a direct
    // call's refusal is the step-up error).
    expect(await run(server, 'call_tool', { name: 'secret_report' })).toMatchObject({
      result: { kind: 'error' },
    });
    const refused = await run(server, 'call_tool', { name: 'drop_database' });
    expect(refused).toMatchObject({ result: { kind: 'error' } });
    expect(JSON.stringify(refused)).toContain('needs the scope admin');
    await expect(run(server, 'drop_database', {})).rejects.toThrow('needs the scope admin');
    expect(await run(server, 'call_tool', { name: 'call_tool' })).toMatchObject({
      result: { kind: 'error' },
    });
  });

  it('keeps a mounted server behind its search: its meta-tools listed, its tools callable', async () => {
    const host = createServer({ name: 'host', version: '1.0.0', ...quiet }).mount(
      tools({ pinned: ['send_email'] }),
      { namespace: 'ops' },
    );
    await runtimeOf(host).ready();
    expect(runtimeOf(host).catalog.tools.map((e) => e.definition.name)).toEqual([
      'ops_send_email',
      'ops_search_tools',
      'ops_get_tool_schemas',
      'ops_call_tool',
    ]);
    expect(await run(host, 'ops_create_issue', { title: 'y' })).toMatchObject({
      result: { text: 'issue y' },
    });
    expect(found(await run(host, 'ops_search_tools', { query: 'pull requests' }))).toEqual([
      'list_pull_requests',
    ]);
  });

  it('searches a host and its mounts together when the host has search, meta-tools prefixed', async () => {
    const inner = createServer({ name: 'inner', version: '1.0.0', ...quiet }).tool(
      'weather',
      { description: 'Weather forecast for a city' },
      () => text('sun'),
    );
    const host = createServer({
      name: 'host',
      version: '1.0.0',
      ...quiet,
      catalog: { toolSearch: { prefix: 'gw_' } },
    }).mount(inner, { namespace: 'w' });
    await runtimeOf(host).ready();
    expect(runtimeOf(host).catalog.tools.map((e) => e.definition.name)).toEqual([
      'gw_search_tools',
      'gw_get_tool_schemas',
      'gw_call_tool',
    ]);
    expect(found(await run(host, 'gw_search_tools', { query: 'forecast' }))).toEqual(['w_weather']);
  });
});

describe('tool search bounds', () => {
  it('gives maxResults results by default and refuses a limit above 50 or too many names', async () => {
    const server = createServer({
      name: 'many',
      version: '1.0.0',
      ...quiet,
      catalog: { toolSearch: { maxResults: 2 } },
    });
    for (let i = 0; i < 60; i++)
      server.tool(`report_${i}`, { description: `Report number ${i}` }, () => text('r'));
    expect(found(await run(server, 'search_tools', { query: 'report' }))).toHaveLength(2);
    expect(found(await run(server, 'search_tools', { query: 'report', limit: 50 }))).toHaveLength(
      50,
    );
    expect(await run(server, 'search_tools', { query: 'report', limit: 51 })).toMatchObject({
      result: { kind: 'error' },
    });
    const names = Array.from({ length: 51 }, (_, i) => `report_${i}`);
    expect(await run(server, 'get_tool_schemas', { names })).toMatchObject({
      result: { kind: 'error' },
    });
    expect(await run(server, 'search_tools', { query: 'x'.repeat(1001) })).toMatchObject({
      result: { kind: 'error' },
    });
  });
});

describe('the ranking', () => {
  it('weighs names over descriptions and matches word forms', () => {
    const index = new ToolSearchIndex([
      { name: 'delete_file', description: 'Remove a file', inputSchema: { type: 'object' } },
      {
        name: 'read_file',
        description: 'Read a file; see delete to remove it',
        inputSchema: { type: 'object' },
      },
      {
        name: 'listRepositories',
        description: 'Repositories of a user',
        inputSchema: { type: 'object', properties: { owner: {} } },
      },
    ]);
    expect(index.rank('delete')[0]?.name).toBe('delete_file');
    expect(index.rank('listing repository')[0]?.name).toBe('listRepositories');
    expect(index.rank('owner')[0]?.name).toBe('listRepositories');
    expect(index.rank('the of a')).toEqual([]);
  });
});
