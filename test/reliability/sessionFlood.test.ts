import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_MAIN, fixtureServerParams } from '../stdio/support/fixture.js';
import { initialize, legacy, modern, MODERN, type Message } from './support/messages.js';
import { scaled } from '@rondo/test-support/timeFactor';

/** The flood: legacy `initialize` POSTs, 100 at a time, against `serveHttp` with its defaults. */
const SESSIONS = Number(process.env.RONDO_FLOOD_SESSIONS ?? 60_000);
const CONCURRENCY = 100;
/** The flood takes 15 to 40 s, depending on what else the machine runs. */
const FLOOD_TIMEOUT_MS = 180_000;
const MIB = 1024 * 1024;

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
let child: ChildProcess;
let url: URL;

/** The conformance fixture (both eras, `serveHttp` defaults) in its own process, so its RSS is its own. */
async function startFixture(): Promise<{ child: ChildProcess; url: URL }> {
  const params = fixtureServerParams();
  const started = spawn(params.command, [FIXTURE_MAIN, '--transport', 'http', '--port', '0'], {
    env: params.env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const address = await new Promise<string>((resolve, reject) => {
    let stderr = '';
    started.stderr?.setEncoding('utf8');
    started.stderr?.on('data', (chunk: string) => {
      stderr += chunk;
      const match = /serving http at (\S+)/.exec(stderr);
      if (match?.[1]) resolve(match[1]);
    });
    started.once('exit', (code) => reject(new Error(`fixture exited (${code}): ${stderr}`)));
  });
  return { child: started, url: new URL(address) };
}

/** The child's resident set size, from `/proc/<pid>/status`. */
function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
  return Number(kib) * 1024;
}

function post(body: Message, headers: Record<string, string> = {}): Promise<Answer> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: 'POST',
      agent,
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'content-length': String(Buffer.byteLength(payload)),
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

/** The JSON-RPC message of an answer, whether it came as JSON or as the last SSE event. */
function messageOf(answer: Answer): Message {
  if (String(answer.headers['content-type']).startsWith('application/json'))
    return JSON.parse(answer.body) as Message;
  const data = answer.body
    .split('\n')
    .filter((line) => line.startsWith('data: ') && line.length > 6)
    .at(-1);
  return JSON.parse(data?.slice(6) ?? 'null') as Message;
}

/** Opens `count` legacy sessions, `CONCURRENCY` at a time; counts the statuses seen. */
async function flood(count: number): Promise<Map<number, number>> {
  const statuses = new Map<number, number>();
  let next = 0;
  let badRetry = 0;
  const worker = async (): Promise<void> => {
    while (next < count) {
      const id = next++;
      const answer = await post(initialize(id));
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      if (answer.status === 503 && answer.headers['retry-after'] === undefined) badRetry++;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  expect(badRetry, '503 answers without Retry-After').toBe(0);
  return statuses;
}

beforeAll(async () => {
  ({ child, url } = await startFixture());
});

afterAll(() => {
  agent.destroy();
  child.kill('SIGTERM');
});

/** What the flood measured, for the tests below. */
interface Flood {
  statuses: Map<number, number>;
  seconds: number;
  /** Peak RSS during the flood over the RSS before it. */
  growthMib: number;
}

let measured: Promise<Flood> | undefined;

/** Runs the flood once (both tests read it), after a warm-up so the baseline is a steady one. */
function measureFlood(): Promise<Flood> {
  measured ??= (async () => {
    await flood(2000);
    const before = rssOf(child.pid ?? 0);
    const started = Date.now();
    // Sampled while the flood runs: the peak is what the server had to hold, whatever the point
    // its garbage collector reached when the last answer came.
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, rssOf(child.pid ?? 0))), 50);
    const statuses = await flood(SESSIONS).finally(() => clearInterval(sampler));
    const seconds = (Date.now() - started) / 1000;
    const after = rssOf(child.pid ?? 0);
    const growthMib = (Math.max(peak, after) - before) / MIB;
    console.info(
      `session flood: ${SESSIONS} initialize POSTs in ${seconds.toFixed(1)} s; RSS ` +
        `${(before / MIB).toFixed(1)} MiB before, ${(after / MIB).toFixed(1)} MiB after, ` +
        `peak +${growthMib.toFixed(1)} MiB; ` +
        `statuses ${JSON.stringify(Object.fromEntries(statuses))}`,
    );
    return { statuses, seconds, growthMib };
  })();
  return measured;
}

describe(`a flood of ${SESSIONS} legacy sessions against serveHttp defaults`, () => {
  it(
    'answers every initialize 200 or 503 and serves a new client within 2 s after',
    { timeout: FLOOD_TIMEOUT_MS },
    async () => {
      const { statuses } = await measureFlood();
      expect([...statuses.keys()].every((status) => status === 200 || status === 503)).toBe(true);

      const clientStarted = Date.now();
      const init = await post(initialize('fresh'));
      expect(init.status).toBe(200);
      const session = String(init.headers['mcp-session-id']);
      const headers = { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
      const initialized = await post(
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        headers,
      );
      expect(initialized.status).toBe(202);
      const call = await post(legacy('call', 'tools/call', { name: 'test_simple_text' }), headers);
      expect(call.status).toBe(200);
      expect(messageOf(call)).toMatchObject({
        id: 'call',
        result: { content: [{ type: 'text' }] },
      });
      const modernCall = await post(modern('m', 'tools/call', { name: 'test_simple_text' }), {
        'mcp-protocol-version': MODERN,
        'mcp-method': 'tools/call',
        'mcp-name': 'test_simple_text',
      });
      expect(modernCall.status).toBe(200);
      expect(messageOf(modernCall)).toMatchObject({
        id: 'm',
        result: { content: [{ type: 'text' }] },
      });
      expect(Date.now() - clientStarted).toBeLessThan(scaled(2000));
    },
  );

  // Issue 18, done-when 1. An idle legacy session holds about 1.2 KiB of heap (no timer, no closures,
  // no empty Maps or Sets, capabilities shared by every session of a server); runs here measured
  // +40 to +80 MiB at the peak, where 3.9 KiB a session used to grow it by about 200 MiB.
  it('grows RSS by less than 150 MiB', { timeout: FLOOD_TIMEOUT_MS }, async () => {
    const { growthMib } = await measureFlood();
    expect(growthMib).toBeLessThan(150);
  });
});
