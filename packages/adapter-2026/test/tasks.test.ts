import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type RondoServer } from '@rondo/core';
import { tasks } from '@rondo/tasks';
import {
  TASKS_EXTENSION,
  formElicitation,
  inputRequest,
  inputRequired,
  text,
} from '@rondo/protocol';
import {
  CreateTaskResultSchema,
  DetailedTaskSchema,
  GetTaskResultSchema,
} from '@rondo/protocol/internal';
import { ModernClient, meta, type WireJson } from './support/modernClient.js';

// The Tasks extension on the modern wire, over an in-memory connection. (These messages are not
// checked against the 2026-07-28 schema, which does not contain the extension: Rondo's own
// schemas of the extension check them instead.)

const WITH_TASKS = { elicitation: {}, extensions: { [TASKS_EXTENSION]: {} } };
const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';
const tick = () => new Promise((resolve) => setTimeout(resolve, 20));

const servers: RondoServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

function setup(): { c: ModernClient; gate: { open: () => void } } {
  const server = createServer({ name: 'tasks', version: '1.0.0', log: () => undefined }).use(
    tasks(),
  );
  servers.push(server);
  const gate = { open: () => undefined as void };
  server.tool('steps', { task: 'optional' }, async (_args, ctx) => {
    ctx.progress(1, 2, 'first step done');
    await new Promise<void>((resolve) => (gate.open = resolve));
    return text('all steps done');
  });
  server.tool('plain', {}, () => text('plain'));
  server.tool('only_task', { task: 'required' }, () => text('ran as a task'));
  server.tool('ask_twice', { task: 'optional' }, (_args, ctx) => {
    const answer = ctx.inputResponses.again;
    const form = formElicitation('Again?', { type: 'object', properties: {} });
    if (ctx.round < 3) return inputRequired([inputRequest('again', form)]);
    return text(`answered: ${answer?.kind}`);
  });
  return { c: new ModernClient(server), gate };
}

const withTasks = { meta: meta(WITH_TASKS) };

describe('the Tasks extension', () => {
  it('is announced in server/discover when a tool has task support', async () => {
    const { c } = setup();
    const discovered = await c.result('server/discover', {});
    expect(discovered.capabilities.extensions).toEqual({ [TASKS_EXTENSION]: {} });
    expect(discovered.capabilities.tasks).toBeUndefined();
  });

  it('answers a task handle that matches CreateTaskResult, and tasks/get the detailed task', async () => {
    const { c, gate } = setup();
    const handle = await c.result('tools/call', { name: 'steps' }, withTasks);
    expect(CreateTaskResultSchema.safeParse(handle).success).toBe(true);
    expect(handle).toMatchObject({
      resultType: 'task',
      status: 'working',
      pollIntervalMs: 500,
      ttlMs: 3_600_000,
    });
    await tick();
    const working = await c.result('tasks/get', { taskId: handle.taskId }, withTasks);
    expect(GetTaskResultSchema.safeParse(working).success).toBe(true);
    expect(working).toMatchObject({ status: 'working', statusMessage: 'first step done' });
    gate.open();
    await tick();
    const done = await c.result('tasks/get', { taskId: handle.taskId }, withTasks);
    expect(done).toMatchObject({
      status: 'completed',
      result: { content: [{ type: 'text', text: 'all steps done' }] },
    });
  });

  it('runs a task-optional tool as an ordinary call without the extension, refuses a task-required one', async () => {
    const { c, gate } = setup();
    const call = c.call('tools/call', { name: 'steps' });
    await tick();
    gate.open();
    expect((await call) as WireJson).toMatchObject({
      result: { resultType: 'complete', content: [{ text: 'all steps done' }] },
    });
    const refused = await c.error('tools/call', { name: 'only_task' });
    expect(refused).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
    });
    expect(c.lastDisposition).toBe('refused');
    expect((await c.error('tasks/get', { taskId: 'x' })).code).toBe(-32021);
  });

  it('never reuses an input request key over a task’s life', async () => {
    const { c } = setup();
    const { taskId } = await c.result('tools/call', { name: 'ask_twice' }, withTasks);
    const keys: string[] = [];
    for (let round = 0; round < 2; round += 1) {
      await tick();
      const parked = await c.result('tasks/get', { taskId }, withTasks);
      expect(parked.status).toBe('input_required');
      const [key] = Object.keys(parked.inputRequests);
      keys.push(key!);
      await c.result(
        'tasks/update',
        { taskId, inputResponses: { [key!]: { action: 'decline' } } },
        withTasks,
      );
    }
    expect(keys).toEqual(['again', 'again.2']);
    await tick();
    expect(await c.result('tasks/get', { taskId }, withTasks)).toMatchObject({
      status: 'completed',
      result: { content: [{ text: 'answered: decline' }] },
    });
  });

  it('sends notifications/tasks for the listed tasks the caller owns on subscriptions/listen', async () => {
    const { c, gate } = setup();
    const { taskId } = await c.result('tools/call', { name: 'steps' }, withTasks);
    const listen = c.open(
      'subscriptions/listen',
      { notifications: { taskIds: [taskId, 'not-a-task'] } },
      { ...withTasks, id: 'listen:1' },
    );
    await tick();
    expect(listen.sent[0]).toMatchObject({
      method: 'notifications/subscriptions/acknowledged',
      params: { notifications: { taskIds: [taskId] } },
    });
    gate.open();
    await tick();
    const updates = listen.sent.slice(1) as WireJson[];
    expect(updates.map((message) => message.method)).toEqual(['notifications/tasks']);
    expect(updates[0].params._meta).toEqual({ [SUBSCRIPTION_ID]: 'listen:1' });
    expect(DetailedTaskSchema.safeParse(updates[0].params).success).toBe(true);
    expect(updates[0].params).toMatchObject({
      taskId,
      status: 'completed',
      result: { content: [{ text: 'all steps done' }] },
    });
    listen.abort();
  });

  it('refuses task notifications to a listen request that does not declare the extension', async () => {
    const { c } = setup();
    const refused = await c.error('subscriptions/listen', { notifications: { taskIds: ['x'] } });
    expect(refused.code).toBe(-32021);
  });
});
