import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';
import { useRedisServer } from './support/harness.js';

// Issue 31, point 9: a one-time requestState accepted by one process is refused by another that
// shares its Redis; two real processes, a real redis-server.
const REPLICA = fileURLToPath(new URL('./fixtures/oneTimeReplica.mjs', import.meta.url));
const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
};

interface Replica {
  child: ChildProcess;
  url: string;
}

function startReplica(redisUrl: string, prefix: string, key: string): Promise<Replica> {
  const child = spawn(process.execPath, [REPLICA, redisUrl, prefix], {
    env: { ...process.env, RONDO_STATE_KEY: key },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(
      () => reject(new Error(`no replica in time:\n${output}`)),
      scaled(20_000),
    );
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      const url = /serving (\S+)/.exec(output)?.[1];
      if (url) {
        clearTimeout(timer);
        resolve({ child, url });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`replica exited with ${code}:\n${output}`));
    });
  });
}

/** A modern `tools/call pay`, first call or retry; resolves with the JSON-RPC answer. */
interface Answer {
  result?: { resultType: string; requestState?: string; content?: { text: string }[] };
  error?: { code: number; message: string };
}

async function pay(url: string, requestState?: string): Promise<Answer> {
  const params: Record<string, unknown> = { name: 'pay', arguments: {}, _meta: META };
  if (requestState !== undefined) {
    params.requestState = requestState;
    params.inputResponses = { confirm: { action: 'accept', content: { ok: true } } };
  }
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'pay',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params }),
  });
  const body = await response.text();
  // An SSE answer carries the JSON-RPC message on its data line.
  const json = body.startsWith('{') ? body : /^data: (.*)$/m.exec(body)?.[1];
  return JSON.parse(json ?? 'null') as Answer;
}

describe('a one-time requestState across two processes sharing Redis', () => {
  const redis = useRedisServer();
  const replicas: Replica[] = [];
  beforeAll(async () => {
    const key = randomBytes(32).toString('base64');
    const prefix = `one-time-${randomBytes(4).toString('hex')}:`;
    for (let i = 0; i < 2; i++) replicas.push(await startReplica(redis().url, prefix, key));
  }, scaled(60_000));
  afterAll(async () => {
    await Promise.all(
      replicas.map(
        ({ child }) =>
          new Promise((resolve) => {
            child.once('exit', resolve);
            child.kill('SIGKILL');
          }),
      ),
    );
  });

  it('is accepted by one process and refused by both afterwards, with -32602', async () => {
    const [a, b] = replicas as [Replica, Replica];
    const first = await pay(a.url);
    expect(first.result?.resultType).toBe('input_required');
    const state = first.result?.requestState;
    const paid = await pay(b.url, state);
    expect(paid.result?.content?.[0]?.text).toMatch(/^paid 1 in process/);
    for (const replica of [a, b, a, b])
      expect((await pay(replica.url, state)).error).toEqual({
        code: -32602,
        message: 'Invalid or expired requestState',
      });
  });

  it('refuses the same state sent to both processes at once, but once', async () => {
    const [a, b] = replicas as [Replica, Replica];
    const state = (await pay(a.url)).result?.requestState;
    const answers = await Promise.all([pay(a.url, state), pay(b.url, state)]);
    expect(answers.filter((answer) => answer.result !== undefined)).toHaveLength(1);
    expect(answers.filter((answer) => answer.error?.code === -32602)).toHaveLength(1);
  });
});
