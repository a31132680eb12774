import { Agent, request } from 'node:http';
import { createEndpoint, createServer, type RondoServer } from '@rondo/core';
import { modernEra } from '@rondo/adapter-2026';
import { TASKS_EXTENSION, text } from '@rondo/protocol';
import { serveHttp, type HttpServerHandle } from '@rondo/transport-http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tasks } from '@rondo/tasks';
import { MODERN, MODERN_META, type Message } from './support/messages.js';
import { scaled } from '@rondo/test-support/timeFactor';

// Issue 31, done-when 3 (tasks): while one anonymous client floods the server with tasks that
// never finish, a second anonymous client keeps being served with p99 latency under 1 s and still
// creates, reads and cancels its own tasks: the per-owner share counts each address apart. The
// flooder sends from 127.0.0.2. Bounded: 600 task requests against a share of 200.

const FLOODER = '127.0.0.2';
const FLOOD = 600;
const SHARE = 200;
const CONCURRENCY = 40;

/** The `_meta` of a modern client that declares the Tasks extension. */
const TASK_META = {
  ...MODERN_META,
  'io.modelcontextprotocol/clientCapabilities': { extensions: { [TASKS_EXTENSION]: {} } },
};

const flooderAgent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY, localAddress: FLOODER });
const clientAgent = new Agent({ keepAlive: true, maxSockets: 4 });
let server: RondoServer;
let http: HttpServerHandle;
let nextId = 1;

interface Answer {
  status: number;
  result?: Message;
  error?: { code: number; message: string; data?: Message };
}

/** POSTs one modern request (task-capable) and reads its JSON answer. */
function rpc(agent: Agent, method: string, params: Message, name: string): Promise<Answer> {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: nextId++,
    method,
    params: { ...params, _meta: TASK_META },
  });
  return new Promise((resolve, reject) => {
    const req = request(http.url, {
      method: 'POST',
      agent,
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': MODERN,
        'mcp-method': method,
        'mcp-name': name,
      },
    });
    req.once('error', reject);
    req.once('response', (res) => {
      let data = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (data += chunk));
      res.once('end', () => {
        try {
          resolve({ status: res.statusCode ?? 0, ...(JSON.parse(data) as Omit<Answer, 'status'>) });
        } catch {
          resolve({ status: res.statusCode ?? 0, error: { code: 0, message: data.slice(0, 120) } });
        }
      });
      res.once('error', reject);
    });
    req.end(body);
  });
}

const callTool = (agent: Agent, name: string) =>
  rpc(agent, 'tools/call', { name, arguments: {} }, name);

beforeAll(async () => {
  server = createServer({
    name: 'fair-share-tasks',
    version: '1.0.0',
    log: () => {},
  }).use(tasks({ maxTasksPerOwner: SHARE }));
  // Runs until cancelled or expired: each task holds its place in its owner's share.
  server.tool('hold', { task: 'optional' }, (_args, ctx) => {
    return new Promise((_resolve, reject) => {
      ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason as Error));
    });
  });
  server.tool('quick', {}, () => text('done'));
  http = await serveHttp(createEndpoint(server, { modern: modernEra() }));
});

afterAll(async () => {
  flooderAgent.destroy();
  clientAgent.destroy();
  await http.close();
  await server.close();
});

describe('a flood of tasks from one client', () => {
  it(
    'leaves a second client served with p99 under 1 s, its own tasks created',
    { timeout: scaled(180_000) },
    async () => {
      let flooding = true;
      const flood = (async () => {
        const outcomes = { created: 0, refused: 0, other: 0 };
        let next = 0;
        const worker = async (): Promise<void> => {
          while (next++ < FLOOD) {
            const answer = await callTool(flooderAgent, 'hold');
            if (answer.result?.resultType === 'task') outcomes.created += 1;
            else if (answer.error?.data?.limit === 'maxTasksPerOwner') outcomes.refused += 1;
            else outcomes.other += 1;
          }
        };
        await Promise.all(Array.from({ length: CONCURRENCY }, worker));
        flooding = false;
        return outcomes;
      })();

      const latencies: number[] = [];
      const failures: string[] = [];
      const timed = async (what: string, send: () => Promise<Answer>): Promise<Answer> => {
        const started = performance.now();
        const answer = await send();
        latencies.push(performance.now() - started);
        if (answer.status !== 200 || answer.error !== undefined)
          failures.push(`${what}: ${answer.status} ${JSON.stringify(answer.error)}`);
        return answer;
      };
      for (let round = 0; flooding || round < 30; round += 1) {
        await timed('plain call', () => callTool(clientAgent, 'quick'));
        const created = await timed('task', () => callTool(clientAgent, 'hold'));
        const taskId = created.result?.taskId;
        if (typeof taskId !== 'string') continue;
        await timed('tasks/get', () => rpc(clientAgent, 'tasks/get', { taskId }, taskId));
        await timed('tasks/cancel', () => rpc(clientAgent, 'tasks/cancel', { taskId }, taskId));
      }

      const outcomes = await flood;
      latencies.sort((a, b) => a - b);
      const p99 = latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * 0.99))]!;
      console.info(
        `fair share (tasks): flooder ${JSON.stringify(outcomes)}; the other client made ` +
          `${latencies.length} requests, p50 ${latencies[Math.floor(latencies.length / 2)]!.toFixed(1)} ms, ` +
          `p99 ${p99.toFixed(1)} ms, max ${latencies.at(-1)!.toFixed(1)} ms`,
      );
      expect(failures).toEqual([]);
      expect(p99).toBeLessThan(scaled(1000));
      // The flooder was held to its share, and refused precisely past it.
      expect(outcomes).toEqual({ created: SHARE, refused: FLOOD - SHARE, other: 0 });
    },
  );
});
