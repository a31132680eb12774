import { LazyAbortController } from '@rondo/core/internal';
import { createServer, type Endpoint } from '@rondo/core';
import {
  ErrorCode,
  LATEST_MODERN_REVISION,
  MetaKey,
  TASKS_EXTENSION,
  formElicitation,
  inputRequest,
  inputRequired,
  text,
  type JsonRpcMessage,
} from '@rondo/protocol';
import { describe, expect, it } from 'vitest';
import { tasks } from '@rondo/tasks';
import { z } from 'zod';
import { proxy, type PassedTaskLimits } from '../src/index.js';
import { PassedTasks } from '../src/passedTasks.js';
import { clientOf, endpointOf, memoryUpstream, NAME_FORM, passingGateway } from './support.js';

// Issue 26: a modern upstream's tasks pass through the gateway to modern callers, each under an id
// of the gateway's bound to the caller's principal; legacy callers call the same tools as
// ordinary calls.

/** A modern upstream (both eras) with a sync tool, a task-optional job and one asking inside its task. */
function taskUpstream(): Endpoint {
  const server = createServer({ name: 'task-upstream', version: '1.0.0' })
    .use(tasks())
    .tool('quick', {}, () => text('at once'))
    .tool('job', { input: z.object({ ms: z.number() }), task: 'optional' }, async ({ ms }, ctx) => {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(resolve, ms);
        ctx.signal.addEventListener('abort', () => {
          clearTimeout(timer);
          reject(new Error('cancelled'));
        });
      });
      return text(`slept ${ms}`);
    })
    .tool('confirm', { task: 'optional' }, (_args, ctx) => {
      const answer = ctx.inputResponses.who;
      if (answer?.kind !== 'accept') {
        return inputRequired([inputRequest('who', formElicitation('Who?', NAME_FORM))]);
      }
      return text(`confirmed by ${answer.content.name as string}`);
    });
  return endpointOf(server, 'both');
}

/** A gateway over the task upstream, the pass-through path in front of its endpoint. */
function taskGateway(limits: PassedTaskLimits = {}) {
  return passingGateway(memoryUpstream(taskUpstream()), { namespace: 't' }, { limits });
}

/** The `_meta` of a modern request, declaring the Tasks extension unless `tasks` is false. */
function modernMeta(tasks = true): Record<string, unknown> {
  return {
    [MetaKey.protocolVersion]: LATEST_MODERN_REVISION,
    [MetaKey.clientCapabilities]: tasks ? { extensions: { [TASKS_EXTENSION]: {} } } : {},
    [MetaKey.clientInfo]: { name: 'raw', version: '1.0.0' },
  };
}

/** Sends one request straight to `endpoint` as `principal` (no transport headers) and resolves with the answer. */
async function ask(
  endpoint: Endpoint,
  method: string,
  params: Record<string, unknown>,
  principal?: string,
): Promise<Record<string, unknown>> {
  await endpoint.ready();
  const answer = await new Promise<JsonRpcMessage | undefined>((resolve) => {
    const connection = endpoint.connect({ send: () => undefined });
    connection.receive(
      { jsonrpc: '2.0', id: 1, method, params },
      {
        send: () => undefined,
        end: (message) => {
          connection.close();
          resolve(message);
        },
        cancellation: new LazyAbortController(),
        ...(principal ? { principal: { id: principal } } : {}),
      },
    );
  });
  return answer as unknown as Record<string, unknown>;
}

/** The result of a raw request, or a failure naming its error. */
function resultOf(answer: Record<string, unknown>): Record<string, unknown> {
  if ('error' in answer) throw new Error(`expected a result, got ${JSON.stringify(answer.error)}`);
  return answer.result as Record<string, unknown>;
}

/** Polls `tasks/get` until the task is terminal. */
async function settled(endpoint: Endpoint, taskId: string, principal?: string) {
  for (;;) {
    const task = resultOf(
      await ask(endpoint, 'tasks/get', { taskId, _meta: modernMeta() }, principal),
    );
    if (['completed', 'failed', 'cancelled'].includes(task.status as string)) return task;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('tasks through the pass-through path', () => {
  it('shows an upstream task under an id of the gateway, and reads it to its result', async () => {
    const { endpoint, passed, answers } = taskGateway();
    const client = await clientOf(endpoint, '2026-07-28');
    const task = await client.callToolAsTask('t_job', { ms: 30 });
    const upstreamHandle = answers[0] as { taskId: string };
    expect(task.created.status).toBe('working');
    expect(upstreamHandle.taskId).not.toBe(task.taskId);
    expect(task.taskId).toMatch(/^[A-Za-z0-9_-]{24}$/);
    const result = await task.result();
    expect(result.content).toEqual([{ type: 'text', text: 'slept 30' }]);
    expect(passed.mock.calls.map((call) => call[1])).toContain('tasks/get');
    await client.close();
  });

  it('announces the extension in server/discover, and keeps a sync tool and an undeclared caller sync', async () => {
    const { endpoint } = taskGateway();
    const client = await clientOf(endpoint, '2026-07-28');
    await client.listTools();
    const discovered = resultOf(await ask(endpoint, 'server/discover', { _meta: modernMeta() }));
    expect(discovered.capabilities).toMatchObject({ extensions: { [TASKS_EXTENSION]: {} } });
    const quick = resultOf(
      await ask(endpoint, 'tools/call', { name: 't_quick', arguments: {}, _meta: modernMeta() }),
    );
    expect(quick).toMatchObject({ resultType: 'complete', content: [{ text: 'at once' }] });
    const plain = resultOf(
      await ask(endpoint, 'tools/call', {
        name: 't_job',
        arguments: { ms: 1 },
        _meta: modernMeta(false),
      }),
    );
    expect(plain).toMatchObject({ resultType: 'complete', content: [{ text: 'slept 1' }] });
    await client.close();
  });

  it('asks for input inside the task, and cancels a running one', async () => {
    const { endpoint } = taskGateway();
    const client = await clientOf(endpoint, '2026-07-28', {
      elicitation: () => ({ action: 'accept', content: { name: 'Ada' } }),
    });
    const confirm = await client.callToolAsTask('t_confirm');
    expect((await confirm.result()).content).toEqual([{ type: 'text', text: 'confirmed by Ada' }]);
    const long = await client.callToolAsTask('t_job', { ms: 60_000 });
    await long.cancel();
    expect((await settled(endpoint, long.taskId)).status).toBe('cancelled');
    await client.close();
  });

  it("reads another principal's task, an id it never gave and an undeclared request as the server's own", async () => {
    const { endpoint } = taskGateway();
    const created = resultOf(
      await ask(
        endpoint,
        'tools/call',
        { name: 't_job', arguments: { ms: 5_000 }, _meta: modernMeta() },
        'alice',
      ),
    );
    const taskId = created.taskId as string;
    expect(created.resultType).toBe('task');
    expect(
      resultOf(await ask(endpoint, 'tasks/get', { taskId, _meta: modernMeta() }, 'alice')),
    ).toMatchObject({ taskId, status: 'working' });
    const notFound = {
      code: ErrorCode.InvalidParams,
      message: 'Failed to retrieve task: Task not found',
    };
    for (const [id, principal] of [
      [taskId, 'bob'],
      [taskId, undefined],
      ['never-given', 'alice'],
    ] as const) {
      const answer = await ask(
        endpoint,
        'tasks/cancel',
        { taskId: id, _meta: modernMeta() },
        principal,
      );
      expect(answer.error).toMatchObject(notFound);
    }
    const undeclared = await ask(
      endpoint,
      'tasks/get',
      { taskId, _meta: modernMeta(false) },
      'alice',
    );
    expect(undeclared.error).toMatchObject({ code: ErrorCode.MissingClientCapability });
    resultOf(await ask(endpoint, 'tasks/cancel', { taskId, _meta: modernMeta() }, 'alice'));
    expect((await settled(endpoint, taskId, 'alice')).status).toBe('cancelled');
  });

  it("forgets a principal's oldest task id past maxTasksPerOwner, and the oldest of all past maxTasks", async () => {
    const { endpoint } = taskGateway({ maxTasksPerOwner: 2, maxTasks: 3 });
    const start = async (principal: string) => {
      const params = { name: 't_job', arguments: { ms: 5_000 }, _meta: modernMeta() };
      return resultOf(await ask(endpoint, 'tools/call', params, principal)).taskId as string;
    };
    const status = async (taskId: string, principal: string) => {
      const answer = await ask(endpoint, 'tasks/get', { taskId, _meta: modernMeta() }, principal);
      return 'error' in answer ? (answer.error as { code: number }).code : 'known';
    };
    const [a1, a2, a3] = [await start('alice'), await start('alice'), await start('alice')];
    // Alice's third pushed her first out (her share of two).
    expect([await status(a1, 'alice'), await status(a2, 'alice')]).toEqual([
      ErrorCode.InvalidParams,
      'known',
    ]);
    // Bob's second makes four: the oldest of all (Alice's second) goes for the cap.
    const [b1, b2] = [await start('bob'), await start('bob')];
    const after = [
      [a2, 'alice'],
      [a3, 'alice'],
      [b1, 'bob'],
      [b2, 'bob'],
    ] as const;
    const known = [];
    for (const [taskId, principal] of after) known.push(await status(taskId, principal));
    expect(known).toEqual([ErrorCode.InvalidParams, 'known', 'known', 'known']);
    for (const [taskId, principal] of after.slice(1)) {
      await ask(endpoint, 'tasks/cancel', { taskId, _meta: modernMeta() }, principal);
    }
  });

  it('refuses a principal past maxRunningTasksPerOwner running tasks, and lets the others start theirs', async () => {
    const { endpoint } = taskGateway({ maxRunningTasksPerOwner: 2 });
    const start = async (principal: string) => {
      const params = { name: 't_job', arguments: { ms: 5_000 }, _meta: modernMeta() };
      return ask(endpoint, 'tools/call', params, principal);
    };
    const [a1, a2] = [resultOf(await start('alice')), resultOf(await start('alice'))];
    expect(await start('alice')).toMatchObject({
      error: {
        code: -32603,
        message:
          'Upstream "t" is busy: this client already has 2 tasks running there (maxRunningTasksPerOwner); wait for them or cancel them first',
      },
    });
    const b1 = resultOf(await start('bob'));
    expect(b1.resultType).toBe('task');
    // A task seen finished (here cancelled) no longer counts: Alice may start another.
    await ask(endpoint, 'tasks/cancel', { taskId: a1.taskId, _meta: modernMeta() }, 'alice');
    const a3 = resultOf(await start('alice'));
    expect(a3.resultType).toBe('task');
    for (const [task, principal] of [
      [a2, 'alice'],
      [a3, 'alice'],
      [b1, 'bob'],
    ] as const) {
      await ask(endpoint, 'tasks/cancel', { taskId: task.taskId, _meta: modernMeta() }, principal);
    }
  });

  it('calls the same tools as ordinary calls for a legacy caller', async () => {
    const { endpoint, passed } = taskGateway();
    const legacy = await clientOf(endpoint, '2025-11-25', {
      elicitation: () => ({ action: 'accept', content: { name: 'Grace' } }),
    });
    expect((await legacy.callTool('t_job', { ms: 1 })).content).toEqual([
      { type: 'text', text: 'slept 1' },
    ]);
    expect((await legacy.callTool('t_confirm')).content).toEqual([
      { type: 'text', text: 'confirmed by Grace' },
    ]);
    expect(passed).not.toHaveBeenCalled();
    await legacy.close();
  });
});

describe('PassedTasks', () => {
  const provider = proxy({ transport: () => undefined as never, label: 'none' });

  it('binds each id to its principal and forgets it at the upstream TTL', () => {
    let now = 1_000;
    const tasks = new PassedTasks({ now: () => now });
    const id = tasks.add(provider, 'up-1', 'alice', 100);
    expect(tasks.find(id, 'alice')).toMatchObject({ upstreamId: 'up-1', provider });
    expect(tasks.find(id, 'bob')).toBeUndefined();
    expect(tasks.find(id, undefined)).toBeUndefined();
    now += 100;
    expect(tasks.find(id, 'alice')).toBeUndefined();
    expect(tasks.size).toBe(0);
    const forever = tasks.add(provider, 'up-2', undefined, null);
    now += 1e9;
    expect(tasks.find(forever, undefined)?.upstreamId).toBe('up-2');
  });

  it("forgets an owner's oldest past its share, and the oldest of all past the cap", () => {
    const tasks = new PassedTasks({ maxTasks: 3, maxTasksPerOwner: 2 });
    const [a1, a2, a3] = ['1', '2', '3'].map((n) => tasks.add(provider, `a${n}`, 'alice', 1e6));
    expect(tasks.find(a1!, 'alice')).toBeUndefined();
    expect(tasks.find(a2!, 'alice')?.upstreamId).toBe('a2');
    const b1 = tasks.add(provider, 'b1', 'bob', 1e6);
    const b2 = tasks.add(provider, 'b2', 'bob', 1e6);
    // Alice's oldest went for her third (her share), the oldest of all for Bob's second (the cap).
    expect(tasks.size).toBe(3);
    expect(tasks.find(a2!, 'alice')).toBeUndefined();
    expect(tasks.find(a3!, 'alice')?.upstreamId).toBe('a3');
    expect([tasks.find(b1, 'bob')?.upstreamId, tasks.find(b2, 'bob')?.upstreamId]).toEqual([
      'b1',
      'b2',
    ]);
    // A share of one: each new task replaces the last, which stays findable until then.
    const single = new PassedTasks({ maxTasksPerOwner: 1 });
    const x1 = single.add(provider, 'x1', 'carol', 1e6);
    expect(single.find(x1, 'carol')?.upstreamId).toBe('x1');
    const x2 = single.add(provider, 'x2', 'carol', 1e6);
    const x3 = single.add(provider, 'x3', 'carol', 1e6);
    expect(single.size).toBe(1);
    expect([single.find(x2, 'carol'), single.find(x3, 'carol')?.upstreamId]).toEqual([
      undefined,
      'x3',
    ]);
  });
});
