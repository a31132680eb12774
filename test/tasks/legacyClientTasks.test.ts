import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFixtureHttp, type FixtureHttp } from '../http/support/fixtureServer.js';

// Issue 14, done-when 4: a legacy client never sees a task. The official v1 client calls the
// fixture's task-optional and task-required tools over Streamable HTTP and gets ordinary results.
describe('@modelcontextprotocol/sdk 1.x calling tools with task support', () => {
  let fixture: FixtureHttp;
  let client: Client;
  beforeEach(async () => {
    fixture = await startFixtureHttp();
    client = new Client(
      { name: 'legacy-tasks-test', version: '1.0.0' },
      { capabilities: { elicitation: {} } },
    );
    await client.connect(new StreamableHTTPClientTransport(fixture.url, { fetch: fixture.fetch }));
  });
  afterEach(async () => {
    await client.close();
    await fixture.close();
  });

  it('lists them without any task field', async () => {
    const { tools } = await client.listTools();
    const slow = tools.find((tool) => tool.name === 'slow_compute');
    expect(slow).toBeDefined();
    expect(Object.keys(slow!)).not.toContain('execution');
    expect(tools.find((tool) => tool.name === 'failing_job')?.execution).toBeUndefined();
  });

  it('runs a task-optional tool as an ordinary call, with progress', async () => {
    const progress: number[] = [];
    const result = await client.callTool(
      { name: 'slow_compute', arguments: { seconds: 2, label: 'legacy' } },
      undefined,
      { onprogress: (update) => progress.push(update.progress) },
    );
    expect(result).toEqual({ content: [{ type: 'text', text: 'Computed legacy after 2 s' }] });
    expect(progress).toEqual([0, 1]);
  });

  it('runs a task-required tool to completion', async () => {
    const result = await client.callTool({ name: 'failing_job', arguments: {} });
    expect(result).toMatchObject({ isError: true, content: [{ type: 'text' }] });
    expect(Object.keys(result)).not.toContain('taskId');
  });

  it('asks a task tool’s questions with real elicitation requests', async () => {
    client.setRequestHandler(ElicitRequestSchema, async () => ({
      action: 'accept',
      content: { confirm: true },
    }));
    const deleted = await client.callTool({
      name: 'confirm_delete',
      arguments: { filename: 'a.txt' },
    });
    expect(deleted).toEqual({ content: [{ type: 'text', text: 'Deleted a.txt' }] });
    client.setRequestHandler(ElicitRequestSchema, async () => ({
      action: 'accept',
      content: { name: 'Lin' },
    }));
    const greeted = await client.callTool({ name: 'test_tool_with_task', arguments: {} });
    expect(greeted).toEqual({ content: [{ type: 'text', text: 'Hello, Lin!' }] });
  });
});
