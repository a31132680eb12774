import { createServer, createEndpoint, type RondoServer } from '@rondo/core';
import { tasks, type TaskOptions, type TasksExtension } from '@rondo/tasks';
import { modernEra } from '@rondo/adapter-2026';
import { text } from '@rondo/protocol';
import { serveHttp, type HttpServerHandle } from '@rondo/transport-http';
import { afterEach, describe, expect, it } from 'vitest';
import { rpc, twoPrincipalAuth, waitForStatus, type Json } from './taskClient.js';

// Issue 31 (hardening, round two), points 4, 5 and 11: task results are bounded in bytes, one
// principal cannot take every task slot, and a handler that ignores its signal does not keep its
// run past the task's TTL.

const RESOURCE = 'http://127.0.0.1/mcp';

const open: { http: HttpServerHandle; server: RondoServer }[] = [];
afterEach(async () => {
  for (const { http, server } of open.splice(0)) {
    await http.close();
    await server.close();
  }
});

async function serve(
  taskOptions: TaskOptions,
): Promise<{ url: string; server: RondoServer; extension: TasksExtension }> {
  const extension = tasks(taskOptions);
  const server = createServer({ name: 'tasks-hardening', version: '1.0.0', log: () => {} }).use(
    extension,
  );
  // Never settles and never looks at its signal, holding a megabyte while it "runs".
  server.tool('ignore_signal', { task: 'optional' }, () => {
    const held = new Uint8Array(1 << 20).fill(1);
    return new Promise(() => void held);
  });
  server.tool('hold', { task: 'optional' }, (_args, ctx) => {
    return new Promise((_resolve, reject) => {
      ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason as Error));
    });
  });
  server.tool('quick', { task: 'optional' }, () => text('done'));
  server.tool('big', { task: 'optional' }, () => text('x'.repeat(1 << 20)));
  const endpoint = createEndpoint(server, { modern: modernEra() });
  const http = await serveHttp(endpoint, { auth: twoPrincipalAuth(RESOURCE) });
  open.push({ http, server });
  return { url: http.url, server, extension };
}

async function call(url: string, name: string, token: string) {
  return rpc(url, 'tools/call', { name, arguments: {} }, { token });
}

async function until(check: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
}

describe('issue 31: task runs and shares', () => {
  it('releases the run of a handler that ignores its signal at the task TTL', async () => {
    const { url, extension } = await serve({ ttlMs: 400 });
    const ids: string[] = [];
    for (let index = 0; index < 40; index += 1) {
      const { result } = await call(url, 'ignore_signal', 'alice');
      expect(result).toMatchObject({ resultType: 'task', status: 'working' });
      ids.push(String((result as Json).taskId));
    }
    expect(extension.running).toBeGreaterThan(0);
    // Generous on a loaded machine: the TTL is 400 ms.
    await until(() => extension.running === 0, 10_000);
    expect(extension.running).toBe(0);
    // Past its TTL the task is unknown, as the store forgets it.
    const gone = await rpc(url, 'tasks/get', { taskId: ids[0] }, { token: 'alice' });
    expect(gone.error).toMatchObject({ code: -32602 });
    // The server goes on serving tasks.
    expect((await call(url, 'quick', 'alice')).result).toMatchObject({ resultType: 'task' });
  });

  it('refuses one principal past its share of running tasks while another still creates', async () => {
    const { url } = await serve({ maxTasks: 30, maxTasksPerOwner: 20 });
    const answers = [];
    for (let index = 0; index < 40; index += 1) answers.push(await call(url, 'hold', 'alice'));
    const accepted = answers.filter((answer) => answer.result?.resultType === 'task');
    expect(accepted).toHaveLength(20);
    const refused = answers.find((answer) => answer.error !== undefined);
    expect(refused?.error).toMatchObject({
      code: -32603,
      data: { limit: 'maxTasksPerOwner', maxTasksPerOwner: 20 },
    });
    for (let index = 0; index < 10; index += 1)
      expect((await call(url, 'hold', 'bob')).result).toMatchObject({ resultType: 'task' });
  });

  it('fails a task whose result is past maxTaskResultBytes, with the limit named', async () => {
    const { url } = await serve({ maxTaskResultBytes: 100_000 });
    const { result } = await call(url, 'big', 'alice');
    const failed = await waitForStatus(
      url,
      String((result as Json).taskId),
      ['failed', 'completed'],
      {
        token: 'alice',
        timeoutMs: 10_000,
      },
    );
    expect(failed).toMatchObject({ status: 'failed' });
    expect(JSON.stringify(failed)).toMatch(/limit maxTaskResultBytes: 100000/);
  });

  it('keeps an owner’s finished results within maxTaskBytesPerOwner, the oldest dropped', async () => {
    const { url } = await serve({ maxTaskBytesPerOwner: 4 * (1 << 20) + 4096 });
    const ids: string[] = [];
    for (let index = 0; index < 12; index += 1) {
      const { result } = await call(url, 'big', 'alice');
      const taskId = String((result as Json).taskId);
      ids.push(taskId);
      await waitForStatus(url, taskId, ['completed'], { token: 'alice', timeoutMs: 10_000 });
    }
    const kept = [];
    for (const taskId of ids) {
      const { result } = await rpc(url, 'tasks/get', { taskId }, { token: 'alice' });
      if (result !== undefined) kept.push(taskId);
    }
    expect(kept).toEqual(ids.slice(-4));
  });
});
