import { createServer, createEndpoint, type RondoServer } from '@rondo/core';
import { MemoryTaskStore, tasks, type TaskOptions } from '@rondo/tasks';
import { modernEra } from '@rondo/adapter-2026';
import { legacyEra } from '@rondo/adapter-2025';
import { formElicitation, inputRequest, inputRequired, text } from '@rondo/protocol';
import { serveHttp, type HttpServerHandle } from '@rondo/transport-http';
import { afterEach, describe, expect, it } from 'vitest';
import { rpc, twoPrincipalAuth, waitForStatus, type Json } from './taskClient.js';

// Issue 14, done-when 3 (TypeScript provider): tasks over real sockets on 127.0.0.1.

const RESOURCE = 'http://127.0.0.1/mcp';

interface Served {
  url: string;
  server: RondoServer;
  /** What the `hold` handler saw: its signal's abort, if any. */
  held: { started: number; aborted?: unknown };
  release: () => void;
}

const open: { http: HttpServerHandle; server: RondoServer }[] = [];
afterEach(async () => {
  for (const { http, server } of open.splice(0)) {
    await http.close();
    await server.close();
  }
});

async function serve(taskOptions: TaskOptions = {}): Promise<Served> {
  const server = createServer({
    name: 'tasks-test',
    version: '1.0.0',
    log: () => undefined,
  }).use(tasks(taskOptions));
  const held: Served['held'] = { started: 0 };
  let release: () => void = () => undefined;
  server.tool('finish_later', { task: 'optional' }, async (_args, ctx) => {
    await new Promise<void>((resolve) => (release = resolve));
    return text(`finished, signal aborted: ${ctx.signal.aborted}`);
  });
  server.tool('hold', { task: 'optional' }, (_args, ctx) => {
    held.started += 1;
    return new Promise((_resolve, reject) => {
      ctx.signal.addEventListener('abort', () => {
        held.aborted = ctx.signal.reason;
        reject(ctx.signal.reason as Error);
      });
    });
  });
  server.tool('quick', { task: 'optional' }, () => text('done'));
  server.tool('ask_name', { task: 'optional' }, (_args, ctx) => {
    const answer = ctx.inputResponses.name;
    if (answer?.kind !== 'accept') {
      const form = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] };
      return inputRequired([inputRequest('name', formElicitation('Your name?', form))]);
    }
    return text(`Hello, ${JSON.stringify(answer.content.name)}`);
  });
  const endpoint = createEndpoint(server, { modern: modernEra(), legacy: legacyEra() });
  const http = await serveHttp(endpoint, {
    auth: twoPrincipalAuth(RESOURCE),
  });
  open.push({ http, server });
  return { url: http.url, server, held, release: () => release() };
}

async function createTask(url: string, name: string, token = 'alice'): Promise<Json> {
  const { status, result, error } = await rpc(
    url,
    'tools/call',
    { name, arguments: {} },
    { token },
  );
  expect(error, JSON.stringify(error)).toBeUndefined();
  expect(status).toBe(200);
  expect(result).toMatchObject({ resultType: 'task', status: 'working' });
  return result!;
}

describe('tasks over Streamable HTTP', () => {
  it('a task outlives the HTTP request that created it', async () => {
    const served = await serve();
    const created = await createTask(served.url, 'finish_later');
    // The tools/call exchange is over (its connection closed); the handler still runs.
    expect(
      await waitForStatus(served.url, String(created.taskId), ['working'], { token: 'alice' }),
    ).toMatchObject({
      status: 'working',
    });
    served.release();
    const done = await waitForStatus(served.url, String(created.taskId), ['completed'], {
      token: 'alice',
    });
    expect(done.result).toEqual({
      content: [{ type: 'text', text: 'finished, signal aborted: false' }],
    });
  });

  it('tasks/cancel aborts the running handler’s signal and the task reads cancelled', async () => {
    const served = await serve();
    const created = await createTask(served.url, 'hold');
    const taskId = String(created.taskId);
    expect(served.held.started).toBe(1);
    const ack = await rpc(served.url, 'tasks/cancel', { taskId }, { token: 'alice' });
    expect(ack.result).toMatchObject({ resultType: 'complete' });
    expect(Object.keys(ack.result!).sort()).toEqual(['_meta', 'resultType']);
    const deadline = Date.now() + 2000;
    while (served.held.aborted === undefined && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(String(served.held.aborted)).toContain('cancelled');
    expect(
      await waitForStatus(served.url, taskId, ['cancelled'], { token: 'alice' }),
    ).toMatchObject({
      status: 'cancelled',
    });
    // Cancelling again, on a terminal task, is the same empty acknowledgement.
    expect(
      (await rpc(served.url, 'tasks/cancel', { taskId }, { token: 'alice' })).result,
    ).toMatchObject({
      resultType: 'complete',
    });
  });

  it('another principal can neither read, answer nor cancel a task: the same error as an unknown id', async () => {
    const served = await serve();
    const created = await createTask(served.url, 'hold');
    const taskId = String(created.taskId);
    const unknown = await rpc(
      served.url,
      'tasks/get',
      { taskId: 'no-such-task' },
      { token: 'bob' },
    );
    for (const [method, params] of [
      ['tasks/get', { taskId }],
      ['tasks/update', { taskId, inputResponses: {} }],
      ['tasks/cancel', { taskId }],
    ] as const) {
      const answer = await rpc(served.url, method, params, { token: 'bob' });
      expect(answer.error?.code, method).toBe(-32602);
      expect(answer.error?.message).toBe(unknown.error?.message);
    }
    expect(served.held.aborted).toBeUndefined();
    expect(await waitForStatus(served.url, taskId, ['working'], { token: 'alice' })).toMatchObject({
      taskId,
    });
  });

  it('a task past its TTL is gone, and its handler is stopped', async () => {
    const served = await serve({ ttlMs: 300 });
    const created = await createTask(served.url, 'hold');
    expect(created.ttlMs).toBe(300);
    await new Promise((resolve) => setTimeout(resolve, 450));
    const answer = await rpc(
      served.url,
      'tasks/get',
      { taskId: String(created.taskId) },
      { token: 'alice' },
    );
    expect(answer.error?.code).toBe(-32602);
    expect(String(served.held.aborted)).toContain('expired');
  });

  it('asks for input inside the task and resumes on tasks/update', async () => {
    const served = await serve();
    const taskId = String((await createTask(served.url, 'ask_name')).taskId);
    const parked = await waitForStatus(served.url, taskId, ['input_required'], { token: 'alice' });
    expect(parked.inputRequests).toEqual({
      name: {
        method: 'elicitation/create',
        params: expect.objectContaining({ message: 'Your name?', mode: 'form' }) as unknown,
      },
    });
    // A malformed answer is refused, and leaves the task waiting.
    const bad = await rpc(
      served.url,
      'tasks/update',
      { taskId, inputResponses: { name: { action: 'accept', content: { name: 42 } } } },
      { token: 'alice' },
    );
    expect(bad.error?.code).toBe(-32602);
    const ok = await rpc(
      served.url,
      'tasks/update',
      { taskId, inputResponses: { name: { action: 'accept', content: { name: 'Ada' } } } },
      { token: 'alice' },
    );
    expect(ok.result).toMatchObject({ resultType: 'complete' });
    const done = await waitForStatus(served.url, taskId, ['completed'], { token: 'alice' });
    expect(done.result).toEqual({ content: [{ type: 'text', text: 'Hello, "Ada"' }] });
  });

  it('keeps the store bounded: finished tasks make room, running ones are never dropped', async () => {
    const store = new MemoryTaskStore({ maxTasks: 20, maxTasksPerOwner: 15 });
    const served = await serve({ store });
    for (let index = 0; index < 60; index += 1) {
      const { taskId } = await createTask(served.url, 'quick');
      await waitForStatus(served.url, String(taskId), ['completed'], { token: 'alice' });
    }
    expect(store.size).toBe(20);
    const held: { taskId: string; token: string }[] = [];
    // Two principals, each within its share of fifteen, fill the store.
    for (let index = 0; index < 20; index += 1) {
      const token = index < 15 ? 'alice' : 'bob';
      held.push({ taskId: String((await createTask(served.url, 'hold', token)).taskId), token });
    }
    const refused = await rpc(
      served.url,
      'tools/call',
      { name: 'hold', arguments: {} },
      { token: 'bob' },
    );
    expect(refused.error).toMatchObject({ code: -32603 });
    expect(refused.error?.message).toContain('task store is full');
    expect(store.size).toBe(20);
    // The server keeps serving, and every running task is still there.
    for (const { taskId, token } of held)
      expect((await rpc(served.url, 'tasks/get', { taskId }, { token })).result).toMatchObject({
        status: 'working',
      });
  });
});
