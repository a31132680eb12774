import { Client, inMemoryTransport, TaskEndedError } from '@rondo/client';
import { createFixtureEndpoint } from '@rondo/conformance-fixture';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Tasks in the modern era (the io.modelcontextprotocol/tasks extension) against the fixture: a
// task that asks for input before it starts, one that asks inside the task (tasks/update), and
// cancellation. The 2025-11-25 task shape is tested against server-everything (realServers.test.ts).
describe('tool calls as tasks, 2026-07-28', () => {
  let client: Client;
  beforeAll(async () => {
    client = new Client({
      transport: inMemoryTransport(createFixtureEndpoint()),
      era: '2026-07-28',
      handlers: {
        elicitation: (params) => {
          const content: Record<string, string | boolean> = params.message.startsWith('Delete')
            ? { confirm: true }
            : { name: 'Ada' };
          return { action: 'accept', content };
        },
      },
    });
    await client.connect();
  });
  afterAll(async () => {
    await client.close();
  });

  it('answers the input asked before the task starts, then waits for its result', async () => {
    const task = await client.callToolAsTask('test_tool_with_task');
    expect(task.created.status).toBe('working');
    const result = await task.result();
    expect(result.content).toEqual([{ type: 'text', text: 'Hello, Ada!' }]);
  });

  it('answers input asked inside the task with tasks/update', async () => {
    const task = await client.callToolAsTask('confirm_delete', { filename: 'a.txt' });
    const result = await task.result();
    expect(result.content).toEqual([{ type: 'text', text: 'Deleted a.txt' }]);
  });

  it('cancels a task: waiting for it then fails with TaskEndedError', async () => {
    const task = await client.callToolAsTask('slow_compute', { seconds: 600 });
    await task.cancel();
    const error = await task.result().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TaskEndedError);
    expect((error as TaskEndedError).state.status).toBe('cancelled');
  });
});
