import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedisServer, type RedisServer } from '@rondo/test-support/redisServer';
import { rpc, waitForStatus } from '../tasks/taskClient.js';
import { INITIALIZE, legacyPost } from './support/requests.js';
import { scaled } from '@rondo/test-support/timeFactor';

// Issue 15: two `rondo-logtalk --redis` replicas of the Prolog conformance fixture share one
// redis-server: a legacy session opened on one is served by the other, and a task created on one
// is read and cancelled on the other, the cancellation interrupting the goal where it runs.

const root = join(import.meta.dirname, '..', '..');
const HOST = join(root, 'apps/logtalk-host/dist/main.js');
const FIXTURE = join(root, 'apps/logtalk-host/fixture/conformance.pl');

interface Replica {
  url: string;
  child: ChildProcess;
}

/** Starts a replica on a port the kernel picks (read back from its serving line). */
function startReplica(redisUrl: string, key: string): Promise<Replica> {
  // `--port 0`, not a port found free beforehand: two replicas started at once could be handed
  // the same one, or another test could take it in between.
  const args = [HOST, '--transport', 'http', '--port', '0', '--workers', '1'];
  const child = spawn(process.execPath, [...args, '--redis', redisUrl, FIXTURE], {
    env: { ...process.env, RONDO_STATE_KEY: key },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`no start:\n${output}`)), scaled(30_000));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      const served = /serving .* at (http:\S+)/.exec(output);
      if (served) {
        clearTimeout(timer);
        resolve({ url: served[1]!, child });
      }
    });
    child.once('exit', (code) => reject(new Error(`exited ${code}:\n${output}`)));
  });
}

async function legacy(url: string, body: object, sessionId?: string) {
  const response = await legacyPost(url, body, sessionId);
  return {
    status: response.status,
    sessionId: response.headers.get('mcp-session-id'),
    text: await response.text(),
  };
}

describe('Prolog replicas sharing Redis', () => {
  let redis: RedisServer;
  let first: Replica;
  let second: Replica;
  beforeAll(async () => {
    redis = await startRedisServer();
    const key = randomBytes(32).toString('base64');
    [first, second] = await Promise.all([
      startReplica(redis.url, key),
      startReplica(redis.url, key),
    ]);
  }, scaled(60_000));
  afterAll(async () => {
    for (const replica of [first, second]) replica?.child.kill('SIGTERM');
    await redis?.stop();
  });

  it('serves a legacy session opened on one replica from the other', async () => {
    const opened = await legacy(first.url, INITIALIZE);
    expect(opened.status).toBe(200);
    const call = await legacy(
      second.url,
      {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'greet', arguments: { name: 'Ada' } },
      },
      opened.sessionId!,
    );
    expect(call.status).toBe(200);
    expect(call.text).toContain('Hello, Ada!');
  });

  it('cancels on one replica a task whose goal runs on the other, which then serves at once', async () => {
    const created = await rpc(first.url, 'tools/call', {
      name: 'slow_compute',
      arguments: { seconds: 60, label: 'cluster' },
    });
    expect(created.result).toMatchObject({ resultType: 'task', status: 'working' });
    const taskId = String(created.result!.taskId);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const seen = await rpc(second.url, 'tasks/get', { taskId });
    expect(seen.result).toMatchObject({ status: 'working' });
    expect((await rpc(second.url, 'tasks/cancel', { taskId })).result).toMatchObject({
      resultType: 'complete',
    });
    expect(await waitForStatus(first.url, taskId, ['cancelled'])).toMatchObject({
      status: 'cancelled',
    });
    // One worker on the first replica: it answers now only if the 60 s goal was interrupted.
    const started = Date.now();
    const next = await rpc(first.url, 'tools/call', {
      name: 'greet',
      arguments: { name: 'again' },
    });
    expect(next.result).toMatchObject({ content: [{ type: 'text', text: 'Hello, again!' }] });
    expect(Date.now() - started).toBeLessThan(scaled(5000));
  });
});
