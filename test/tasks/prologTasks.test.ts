import { join } from 'node:path';
import { createEndpoint, createServer, type RondoServer } from '@rondo/core';
import { modernEra } from '@rondo/adapter-2026';
import { legacyEra } from '@rondo/adapter-2025';
import { createPrologProvider, type PrologProvider } from '@rondo/logtalk-bridge';
import { serveHttp, type HttpServerHandle } from '@rondo/transport-http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tasks } from '@rondo/tasks';
import { rpc, twoPrincipalAuth, waitForStatus } from './taskClient.js';
import { scaled } from '@rondo/test-support/timeFactor';

// Issue 14, done-when 3 (Prolog provider): the Prolog conformance fixture's task tools over real
// sockets, on one swipl worker, so that a kept or a replaced worker shows.

const FIXTURE = join(import.meta.dirname, '../../apps/logtalk-host/fixture/conformance.pl');
const RESOURCE = 'http://127.0.0.1/mcp';
let prolog: PrologProvider;
let server: RondoServer;
let http: HttpServerHandle;

beforeAll(async () => {
  prolog = await createPrologProvider({
    files: [FIXTURE],
    workers: 1,
    // Long enough that a worker replaced after a cancellation would show as a slow next call.
    cancelGraceMs: 10_000,
    onLog: () => undefined,
  });
  server = createServer({ name: 'prolog-tasks', version: '1.0.0', log: () => undefined }).use(
    tasks(),
  );
  server.provider(prolog);
  http = await serveHttp(createEndpoint(server, { modern: modernEra(), legacy: legacyEra() }), {
    auth: twoPrincipalAuth(RESOURCE),
  });
}, scaled(60_000));
afterAll(async () => {
  await http.close();
  await server.close();
});

const slow = (seconds: number) => ({
  name: 'slow_compute',
  arguments: { seconds, label: 'prolog' },
});

describe('tasks run by a Prolog provider', () => {
  it('a task outlives the request that created it and reports progress as its status message', async () => {
    const created = await rpc(http.url, 'tools/call', slow(2), { token: 'alice' });
    expect(created.result).toMatchObject({ resultType: 'task', status: 'working' });
    const taskId = String(created.result!.taskId);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const working = await rpc(http.url, 'tasks/get', { taskId }, { token: 'alice' });
    expect(working.result).toMatchObject({ status: 'working', statusMessage: '0 of 2 seconds' });
    const done = await waitForStatus(http.url, taskId, ['completed'], { token: 'alice' });
    expect(done.result).toEqual({ content: [{ type: 'text', text: 'Computed prolog after 2 s' }] });
  });

  it('tasks/cancel interrupts the running goal, and its worker serves the next call at once', async () => {
    const workers = prolog.workerIds();
    const created = await rpc(http.url, 'tools/call', slow(60), { token: 'alice' });
    const taskId = String(created.result!.taskId);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(
      (await rpc(http.url, 'tasks/cancel', { taskId }, { token: 'alice' })).result,
    ).toMatchObject({
      resultType: 'complete',
    });
    expect(await waitForStatus(http.url, taskId, ['cancelled'], { token: 'alice' })).toMatchObject({
      status: 'cancelled',
    });
    const started = Date.now();
    const next = await rpc(
      http.url,
      'tools/call',
      { name: 'greet', arguments: { name: 'again' } },
      { token: 'alice' },
    );
    expect(next.result).toMatchObject({ content: [{ type: 'text', text: 'Hello, again!' }] });
    expect(Date.now() - started).toBeLessThan(scaled(2000));
    expect(prolog.workerIds()).toEqual(workers);
  });

  it('another principal can neither read nor cancel the task', async () => {
    const created = await rpc(http.url, 'tools/call', slow(1), { token: 'alice' });
    const taskId = String(created.result!.taskId);
    for (const method of ['tasks/get', 'tasks/cancel']) {
      const answer = await rpc(http.url, method, { taskId }, { token: 'bob' });
      expect(answer.error).toMatchObject({
        code: -32602,
        message: 'Failed to retrieve task: Task not found',
      });
    }
    expect(await waitForStatus(http.url, taskId, ['completed'], { token: 'alice' })).toMatchObject({
      status: 'completed',
    });
  });

  it('a task past its TTL is gone, and its goal is interrupted while the worker stays', async () => {
    const workers = prolog.workerIds();
    const short = createServer({
      name: 'short-tasks',
      version: '1.0.0',
      log: () => undefined,
    }).use(tasks({ ttlMs: 400 }));
    short.provider(prolog);
    const shortHttp = await serveHttp(createEndpoint(short, { modern: modernEra() }));
    try {
      const created = await rpc(shortHttp.url, 'tools/call', slow(60));
      const taskId = String(created.result!.taskId);
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect((await rpc(shortHttp.url, 'tasks/get', { taskId })).error).toMatchObject({
        code: -32602,
      });
      const started = Date.now();
      const next = await rpc(shortHttp.url, 'tools/call', {
        name: 'greet',
        arguments: { name: 'later' },
      });
      expect(next.result).toMatchObject({ content: [{ text: 'Hello, later!' }] });
      expect(Date.now() - started).toBeLessThan(scaled(2000));
      expect(prolog.workerIds()).toEqual(workers);
    } finally {
      await shortHttp.close();
    }
  });

  it('a JSON-RPC error thrown by the goal fails the task with that error', async () => {
    const created = await rpc(
      http.url,
      'tools/call',
      { name: 'protocol_error_job', arguments: {} },
      { token: 'alice' },
    );
    const failed = await waitForStatus(http.url, String(created.result!.taskId), ['failed'], {
      token: 'alice',
    });
    expect(failed.error).toEqual({ code: -32603, message: 'The job hit an internal error' });
  });
});
