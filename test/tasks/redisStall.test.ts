import { createServer, createEndpoint, type RondoServer } from '@rondo/core';
import { modernEra } from '@rondo/adapter-2026';
import { text } from '@rondo/protocol';
import { createRedisState, type RedisState } from '@rondo/redis';
import { serveHttp, type HttpServerHandle } from '@rondo/transport-http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tasks } from '@rondo/tasks';
import { startRedisServer, type RedisServer } from '@rondo/test-support/redisServer';
import { rpc, twoPrincipalAuth, waitForStatus } from './taskClient.js';

// Issue 31, point 8: a task whose handler finishes while Redis is frozen (SIGSTOP) keeps its
// result: the final write is tried again until Redis answers, never turned into `failed`.

const RESOURCE = 'http://127.0.0.1/mcp';

let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(async () => {
  await redis.stop();
});

describe('issue 31: a Redis stall and a finished task', () => {
  it('stores the result of a handler that completed while Redis was frozen', async () => {
    const state: RedisState = await createRedisState({
      url: redis.url,
      prefix: 'stall:',
      commandTimeoutMs: 300,
      onError: () => undefined,
    });
    const logged: string[] = [];
    const server: RondoServer = createServer({
      name: 'stall',
      version: '1.0.0',
      log: (_level, message) => logged.push(message),
    }).use(tasks({ store: state.tasks, ttlMs: 60_000 }));
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    server.tool('finish_later', { task: 'optional' }, async () => {
      await released;
      return text('the answer survived');
    });
    const endpoint = createEndpoint(server, { modern: modernEra() });
    const http: HttpServerHandle = await serveHttp(endpoint, { auth: twoPrincipalAuth(RESOURCE) });
    const pid = redis.pid;
    try {
      const created = await rpc(
        http.url,
        'tools/call',
        { name: 'finish_later', arguments: {} },
        { token: 'alice' },
      );
      const taskId = String(created.result?.taskId);
      expect(created.result).toMatchObject({ resultType: 'task', status: 'working' });
      process.kill(pid, 'SIGSTOP');
      try {
        release();
        // The first writes time out (300 ms each) while Redis stays frozen for a few seconds.
        await new Promise((resolve) => setTimeout(resolve, 3_000));
      } finally {
        process.kill(pid, 'SIGCONT');
      }
      const done = await waitForStatus(http.url, taskId, ['completed', 'failed'], {
        token: 'alice',
        timeoutMs: 20_000,
      });
      expect(done.status, JSON.stringify(done)).toBe('completed');
      expect(done.result).toEqual({ content: [{ type: 'text', text: 'the answer survived' }] });
      expect(logged.join('\n')).toMatch(/could not store its state/);
    } finally {
      await http.close();
      await server.close();
      await state.close();
    }
  });
});
