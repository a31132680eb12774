import { Agent, request, type IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureHttp, type FixtureHttp } from '../http/support/fixtureServer.js';
import { initialize, legacy, modern, MODERN, type Message } from './support/messages.js';
import { scaled } from '@rondo/test-support/timeFactor';

// Issue 31, done-when 3 (streams and sessions): while one client floods the server with
// `subscriptions/listen` streams and legacy sessions, a second, well-behaved client keeps being
// served with p99 latency under 1 s, its sessions (a busy one and an idle one) never evicted.
// The flooder sends from 127.0.0.2, so the remote-address rule tells the two apart. Bounded: 300
// streams and 1,500 sessions, against the transport's defaults except a lower `maxSessions`, so
// the session flood reaches the total cap.

const FLOODER = '127.0.0.2';
const STREAMS = 300;
const SESSIONS = 1500;
const MAX_SESSIONS = 400;
const CONCURRENCY = 40;

interface Answer {
  status: number;
  headers: IncomingMessage['headers'];
  body: string;
}

const flooderAgent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY, localAddress: FLOODER });
const clientAgent = new Agent({ keepAlive: true, maxSockets: 8 });
let fixture: FixtureHttp;
const held: IncomingMessage[] = [];

function post(agent: Agent, body: Message, headers: Record<string, string> = {}): Promise<Answer> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(fixture.url, {
      method: 'POST',
      agent,
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...headers,
      },
    });
    req.once('error', reject);
    req.once('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.once('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }),
      );
      res.once('error', reject);
    });
    req.end(payload);
  });
}

const MODERN_HEADERS = (method: string, name?: string): Record<string, string> => ({
  'mcp-protocol-version': MODERN,
  'mcp-method': method,
  ...(name ? { 'mcp-name': name } : {}),
});

/** Opens a `subscriptions/listen` stream from the flooder and keeps it; resolves with its status. */
function listenStream(id: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(fixture.url, {
      method: 'POST',
      localAddress: FLOODER,
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...MODERN_HEADERS('subscriptions/listen'),
      },
    });
    req.once('error', reject);
    req.once('response', (res) => {
      res.on('error', () => undefined);
      if (res.statusCode === 200) held.push(res);
      else res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.end(
      JSON.stringify(
        modern(`listen-${id}`, 'subscriptions/listen', {
          notifications: { toolsListChanged: true },
        }),
      ),
    );
  });
}

/** Runs `count` jobs `CONCURRENCY` at a time; counts the statuses they give. */
async function pool(
  count: number,
  job: (n: number) => Promise<number>,
): Promise<Map<number, number>> {
  const statuses = new Map<number, number>();
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < count) {
      const status = await job(next++);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return statuses;
}

/** A legacy session of the well-behaved client, ready for calls. */
async function openSession(id: string): Promise<Record<string, string>> {
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
  fixture = await startFixtureHttp({ maxSessions: MAX_SESSIONS });
});

afterAll(async () => {
  for (const res of held) res.destroy();
  flooderAgent.destroy();
  clientAgent.destroy();
  await fixture.close();
});

describe('a flood of streams and sessions from one client', () => {
  it(
    'leaves a second client served with p99 under 1 s and its sessions in place',
    { timeout: scaled(180_000) },
    async () => {
      const busy = await openSession('busy');
      const idle = await openSession('idle');
      // The busy session keeps its standalone stream open throughout.
      const standalone = await new Promise<IncomingMessage>((resolve, reject) => {
        const req = request(fixture.url, {
          method: 'GET',
          headers: { ...busy, accept: 'text/event-stream' },
        });
        req.once('error', reject);
        req.once('response', resolve);
        req.end();
      });
      held.push(standalone);
      expect(standalone.statusCode).toBe(200);

      let flooding = true;
      const flood = (async () => {
        const streams = await pool(STREAMS, listenStream);
        const sessions = await pool(SESSIONS, async (n) => {
          return (await post(flooderAgent, initialize(`flood-${n}`))).status;
        });
        flooding = false;
        return { streams, sessions };
      })();

      const latencies: number[] = [];
      const failures: string[] = [];
      const calls: [string, () => Promise<Answer>][] = [
        [
          'legacy call',
          () => post(clientAgent, legacy('l', 'tools/call', { name: 'test_simple_text' }), busy),
        ],
        [
          'modern call',
          () =>
            post(
              clientAgent,
              modern('m', 'tools/call', { name: 'test_simple_text' }),
              MODERN_HEADERS('tools/call', 'test_simple_text'),
            ),
        ],
        ['idle session', () => post(clientAgent, legacy('i', 'tools/list', {}), idle)],
      ];
      for (let round = 0; flooding || round < 30; round += 1) {
        const [what, call] = calls[round % calls.length]!;
        const started = performance.now();
        const answer = await call();
        latencies.push(performance.now() - started);
        if (answer.status !== 200)
          failures.push(`${what}: ${answer.status} ${answer.body.slice(0, 120)}`);
      }
      // The client's own listen stream still opens: its share is its own.
      expect(
        await (async () => {
          const status = await new Promise<number>((resolve, reject) => {
            const req = request(fixture.url, {
              method: 'POST',
              headers: {
                'content-type': 'application/json',
                accept: 'application/json, text/event-stream',
                ...MODERN_HEADERS('subscriptions/listen'),
              },
            });
            req.once('error', reject);
            req.once('response', (res) => {
              held.push(res);
              resolve(res.statusCode ?? 0);
            });
            req.end(
              JSON.stringify(
                modern('mine', 'subscriptions/listen', {
                  notifications: { toolsListChanged: true },
                }),
              ),
            );
          });
          return status;
        })(),
      ).toBe(200);

      const { streams, sessions } = await flood;
      latencies.sort((a, b) => a - b);
      const p99 = latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * 0.99))]!;
      console.info(
        `fair share: flooder streams ${JSON.stringify(Object.fromEntries(streams))}, sessions ` +
          `${JSON.stringify(Object.fromEntries(sessions))}; the other client made ` +
          `${latencies.length} calls, p50 ${latencies[Math.floor(latencies.length / 2)]!.toFixed(1)} ms, ` +
          `p99 ${p99.toFixed(1)} ms, max ${latencies.at(-1)!.toFixed(1)} ms`,
      );
      expect(failures).toEqual([]);
      expect(p99).toBeLessThan(scaled(1000));
      // The caps held the flooder to its share: the streams past it were refused with 503.
      expect(streams.get(503) ?? 0).toBeGreaterThan(0);
      expect(streams.get(200) ?? 0).toBeLessThanOrEqual(100);
      expect([...sessions.keys()].every((status) => status === 200 || status === 503)).toBe(true);
    },
  );
});
