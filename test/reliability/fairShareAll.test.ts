import { Agent, request, type IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tasks } from '@rondo/tasks';
import { legacyEra } from '@rondo/adapter-2025';
import { modernEra } from '@rondo/adapter-2026';
import { createEndpoint, createServer, type RondoServer } from '@rondo/core';
import { TASKS_EXTENSION, text } from '@rondo/protocol';
import { serveHttp, type HttpServerHandle } from '@rondo/transport-http';
import { initialize, legacy, MODERN, MODERN_META, type Message } from './support/messages.js';
import { scaled } from '@rondo/test-support/timeFactor';

// Issue 31, done-when 3, all at once: one anonymous client (from 127.0.0.2) floods the server with
// `subscriptions/listen` streams, legacy sessions and never-ending tasks at the same time, while a
// second one (127.0.0.1) keeps calling in both eras, creating, reading and cancelling its own
// tasks, and keeps an idle session: it is served with p99 latency under 1 s, its idle session
// survives, and the flooder is held to its shares. Bounded: 300 streams, 1,500 sessions and 600
// task requests against caps of 100 streams, 400 sessions in all and 200 tasks per client.

const FLOODER = '127.0.0.2';
const STREAMS = 300;
const SESSIONS = 1500;
const MAX_SESSIONS = 400;
const TASKS = 600;
const TASK_SHARE = 200;
const CONCURRENCY = 30;

interface Answer {
  status: number;
  headers: IncomingMessage['headers'];
  body: string;
}

const flooderAgent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY, localAddress: FLOODER });
const clientAgent = new Agent({ keepAlive: true, maxSockets: 8 });
// A held stream keeps its socket: streams go through agents without a socket cap.
const flooderStreams = new Agent({ localAddress: FLOODER });
const clientStreams = new Agent();
const held: IncomingMessage[] = [];
let server: RondoServer;
let http: HttpServerHandle;
let nextId = 1;

const TASK_META = {
  ...MODERN_META,
  'io.modelcontextprotocol/clientCapabilities': { extensions: { [TASKS_EXTENSION]: {} } },
};

/** A modern request with task support, and its routing headers. */
function modernCall(method: string, params: Message, name: string): [Message, Message] {
  const message = {
    jsonrpc: '2.0',
    id: nextId++,
    method,
    params: { ...params, _meta: TASK_META },
  };
  const headers = { 'mcp-protocol-version': MODERN, 'mcp-method': method, 'mcp-name': name };
  return [message, headers];
}

/** POSTs `body`; resolves with the whole answer, or (`keep`) with the status of a held stream. */
function post(agent: Agent, body: Message, headers: Message = {}, keep = false): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(http.url, {
      method: 'POST',
      agent,
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...(headers as Record<string, string>),
      },
    });
    req.once('error', reject);
    req.once('response', (res) => {
      res.on('error', () => undefined);
      if (keep && res.statusCode === 200) {
        held.push(res);
        return resolve({ status: 200, headers: res.headers, body: '' });
      }
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.once('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }),
      );
    });
    req.end(JSON.stringify(body));
  });
}

/** The JSON-RPC message of an answer (a JSON body, or the last event of an SSE body). */
function messageOf(answer: Answer): Message | undefined {
  const data = answer.body.startsWith('{')
    ? answer.body
    : answer.body
        .split('\n')
        .filter((line) => line.startsWith('data: '))
        .at(-1)
        ?.slice(6);
  try {
    return data ? (JSON.parse(data) as Message) : undefined;
  } catch {
    return undefined;
  }
}

/** Runs `count` jobs `CONCURRENCY` at a time; counts the outcomes they give. */
async function pool(count: number, job: () => Promise<string>): Promise<Record<string, number>> {
  const outcomes: Record<string, number> = {};
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next++ < count) {
      const outcome = await job();
      outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return outcomes;
}

const listen = (agent: Agent) =>
  post(
    agent,
    ...modernCall('subscriptions/listen', { notifications: { toolsListChanged: true } }, ''),
    true,
  );

/** What became of one task request: created, refused past the share, or something else. */
async function floodTask(): Promise<string> {
  const answer = messageOf(await post(flooderAgent, ...modernCall('tools/call', HOLD, 'hold')));
  const result = answer?.result as Message | undefined;
  if (result?.resultType === 'task') return 'created';
  const data = (answer?.error as { data?: Message } | undefined)?.data;
  return data?.limit === 'maxTasksPerOwner' ? 'refused' : 'other';
}

const HOLD = { name: 'hold', arguments: {} };

/** A legacy session of the well-behaved client, ready for calls. */
async function openSession(id: string): Promise<Message> {
  const init = await post(clientAgent, initialize(id));
  expect(init.status).toBe(200);
  const headers = {
    'mcp-session-id': String(init.headers['mcp-session-id']),
    'mcp-protocol-version': '2025-11-25',
  };
  await post(clientAgent, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers);
  return headers;
}

beforeAll(async () => {
  server = createServer({
    name: 'fair-share-all',
    version: '1.0.0',
    log: () => {},
  }).use(tasks({ maxTasksPerOwner: TASK_SHARE }));
  // Runs until cancelled or expired: each task holds its place in its owner's share.
  server.tool('hold', { task: 'optional' }, (_args, ctx) => {
    return new Promise((_resolve, reject) => {
      ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason as Error));
    });
  });
  server.tool('quick', {}, () => text('done'));
  const endpoint = createEndpoint(server, {
    modern: modernEra({ alsoSupported: ['2025-11-25', '2025-06-18'] }),
    legacy: legacyEra(),
  });
  http = await serveHttp(endpoint, { maxSessions: MAX_SESSIONS });
});

afterAll(async () => {
  for (const res of held) res.destroy();
  for (const agent of [flooderAgent, clientAgent, flooderStreams, clientStreams]) agent.destroy();
  await http.close();
  await server.close();
});

describe('a flood of streams, sessions and tasks from one client at once', () => {
  it(
    'leaves a second client served with p99 under 1 s, its sessions and tasks its own',
    { timeout: scaled(240_000) },
    async () => {
      const busy = await openSession('busy');
      const idle = await openSession('idle');
      let flooding = true;
      const flood = Promise.all([
        pool(STREAMS, async () => String((await listen(flooderStreams)).status)),
        pool(SESSIONS, async () => String((await post(flooderAgent, initialize('f'))).status)),
        pool(TASKS, floodTask),
      ]).finally(() => (flooding = false));

      const latencies: number[] = [];
      const failures: string[] = [];
      const timed = async (what: string, send: () => Promise<Answer>): Promise<Message> => {
        const started = performance.now();
        const answer = await send();
        latencies.push(performance.now() - started);
        const message = messageOf(answer);
        if (answer.status !== 200 || message?.error !== undefined)
          failures.push(`${what}: ${answer.status} ${answer.body.slice(0, 160)}`);
        return message ?? {};
      };
      for (let round = 0; flooding || round < 30; round += 1) {
        await timed('legacy call', () =>
          post(clientAgent, legacy(nextId++, 'tools/call', { name: 'quick' }), busy),
        );
        await timed('modern call', () =>
          post(clientAgent, ...modernCall('tools/call', { name: 'quick' }, 'quick')),
        );
        const created = await timed('task', () =>
          post(clientAgent, ...modernCall('tools/call', HOLD, 'hold')),
        );
        const taskId = (created.result as Message | undefined)?.taskId;
        if (typeof taskId !== 'string') continue;
        await timed('tasks/get', () =>
          post(clientAgent, ...modernCall('tasks/get', { taskId }, taskId)),
        );
        await timed('tasks/cancel', () =>
          post(clientAgent, ...modernCall('tasks/cancel', { taskId }, taskId)),
        );
      }
      // The client's own listen stream still opens, and its idle session was not evicted.
      expect((await listen(clientStreams)).status).toBe(200);
      await timed('idle session', () =>
        post(clientAgent, legacy(nextId++, 'tools/list', {}), idle),
      );

      const [streams, sessions, tasks] = await flood;
      latencies.sort((a, b) => a - b);
      const p99 = latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * 0.99))]!;
      console.info(
        `fair share (all at once): flooder streams ${JSON.stringify(streams)}, sessions ` +
          `${JSON.stringify(sessions)}, tasks ${JSON.stringify(tasks)}; the other client made ` +
          `${latencies.length} requests, p50 ${latencies[Math.floor(latencies.length / 2)]!.toFixed(1)} ms, ` +
          `p99 ${p99.toFixed(1)} ms, max ${latencies.at(-1)!.toFixed(1)} ms`,
      );
      expect(failures).toEqual([]);
      expect(p99).toBeLessThan(scaled(1000));
      // The flooder was held to its shares: streams past its 100 and tasks past its 200 refused.
      expect(streams['200'] ?? 0).toBeLessThanOrEqual(100);
      expect(streams['503'] ?? 0).toBeGreaterThan(0);
      expect(Object.keys(sessions).every((status) => status === '200' || status === '503')).toBe(
        true,
      );
      expect(tasks).toEqual({ created: TASK_SHARE, refused: TASKS - TASK_SHARE });
    },
  );
});
