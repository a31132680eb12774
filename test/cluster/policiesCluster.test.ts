import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';
import { freePort, startNginx, type RunningNginx } from '../support/nginx.js';
import { startRedisServer, type RedisServer } from '@rondo/test-support/redisServer';

// Issue 28, Done when 3: three replicas on one redis-server behind the real nginx. A limit of N
// tools/call per minute per principal admits N in total across the replicas, not 3N; a
// resources/read cached in each replica's memory is dropped on every replica by a
// resources/updated raised on one (through the change bus).

const SCRIPT = join(import.meta.dirname, 'scripts/policyReplica.mjs');
const LIMIT = 5;
const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'policies-cluster', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

interface Replica {
  port: number;
  url: string;
  child: ChildProcess;
}

function startReplica(redisUrl: string, file: string, key: string, port: number): Promise<Replica> {
  const child = spawn(process.execPath, [SCRIPT, String(port), redisUrl, file, String(LIMIT)], {
    env: { ...process.env, RONDO_STATE_KEY: key },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`no start:\n${output}`)), scaled(30_000));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      if (output.includes('serving at')) {
        clearTimeout(timer);
        resolve({ port, url: `http://127.0.0.1:${port}/mcp`, child });
      }
    });
    child.once('exit', (code) => reject(new Error(`exited ${code}:\n${output}`)));
  });
}

/** A JSON-RPC answer, as far as the test reads it. */
interface Answer {
  result: { content: { text: string }[]; contents: { text: string }[] };
  error: { code: number; data: unknown };
}

/** One modern request as `token`; resolves with the HTTP status and the JSON-RPC answer. */
async function call(url: string, token: string, method: string, params: Record<string, unknown>) {
  const name = (params.name ?? params.uri) as string | undefined;
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${token}`,
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      ...(name !== undefined ? { 'mcp-name': name } : {}),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: META } }),
  });
  return { status: response.status, body: (await response.json()) as Answer };
}

describe(
  'policies across three replicas on Redis behind nginx',
  { timeout: scaled(120_000) },
  () => {
    let redis: RedisServer;
    let nginx: RunningNginx;
    let replicas: Replica[] = [];
    let dir: string;
    let file: string;
    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'rondo-policies-'));
      file = join(dir, 'doc.txt');
      writeFileSync(file, 'v1');
      redis = await startRedisServer();
      const key = randomBytes(32).toString('base64');
      replicas = await Promise.all(
        [0, 1, 2].map(async () => startReplica(redis.url, file, key, await freePort())),
      );
      nginx = await startNginx({ upstreams: replicas.map((replica) => replica.port) });
    }, scaled(90_000));
    afterAll(async () => {
      await nginx?.stop();
      for (const replica of replicas) replica.child.kill('SIGTERM');
      await redis?.stop();
      rmSync(dir, { recursive: true, force: true });
    });

    it(`a limit of ${LIMIT} calls per minute per principal admits ${LIMIT} in total, not ${3 * LIMIT}`, async () => {
      const answers = [];
      for (let index = 0; index < 3 * LIMIT; index += 1)
        answers.push(
          await call(`${nginx.url}/mcp`, 'ada', 'tools/call', { name: 'whoami', arguments: {} }),
        );
      const served = answers.filter((answer) => answer.status === 200);
      expect(served).toHaveLength(LIMIT);
      // They were spread over the replicas: without the shared counter each would admit LIMIT.
      const ports = new Set(
        served.map((answer) => /at (\d+)/.exec(answer.body.result.content[0]!.text)![1]),
      );
      expect(ports.size).toBeGreaterThan(1);
      const refused = answers.filter((answer) => answer.status === 429);
      expect(refused).toHaveLength(2 * LIMIT);
      expect(refused[0]!.body.error).toMatchObject({
        code: -32000,
        data: { retryAfterMs: expect.any(Number) },
      });
      // Straight to each replica: still refused, and another principal is served everywhere.
      for (const replica of replicas) {
        expect(
          (await call(replica.url, 'ada', 'tools/call', { name: 'whoami', arguments: {} })).status,
        ).toBe(429);
        expect(
          (await call(replica.url, `bob`, 'tools/call', { name: 'whoami', arguments: {} })).status,
        ).toBe(200);
      }
    });

    it('a resources/updated raised on one replica drops the cached read on every replica', async () => {
      const read = async (replica: Replica) =>
        (await call(replica.url, 'carol', 'resources/read', { uri: 'doc://shared' })).body.result
          .contents[0]!.text;
      for (const replica of replicas) expect(await read(replica)).toBe(`v1 from ${replica.port}`);
      writeFileSync(file, 'v2');
      // Each replica answers from its cache: the file changed, nobody said so yet.
      for (const replica of replicas) expect(await read(replica)).toBe(`v1 from ${replica.port}`);
      const touched = await call(replicas[1]!.url, 'dave', 'tools/call', {
        name: 'touch',
        arguments: {},
      });
      expect(touched.status).toBe(200);
      for (const replica of replicas) {
        await expect.poll(() => read(replica), { timeout: 5_000 }).toBe(`v2 from ${replica.port}`);
      }
    });
  },
);
