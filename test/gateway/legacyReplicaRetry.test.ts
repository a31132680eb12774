import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as RondoClient, httpTransport } from '@rondo/client';
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';
import { parseAccessLog } from '../support/cluster.js';
import { startNginx, type RunningNginx } from '../support/nginx.js';
import { startRedisServer, type RedisServer } from '@rondo/test-support/redisServer';
import { EVERYTHING_MAIN, startGateway, writeConfig, type RunningGateway } from './support.js';

// Issue 26, done-when 3 for a legacy upstream: three rondo-gateway replicas sharing the real Redis
// behind the real nginx round robin, each fronting its own official server-everything (stdio,
// legacy era only), which asks its client with elicitation/create in the middle of a call. The
// upstream call waits in the replica that started it; the official v2 client's retry, which nginx
// sends to the next replica, is relayed over Redis to the holder, and the upstream's result comes
// back through the replica the retry reached.

const TOOL = 'everything_trigger-elicitation-request';
const ANSWER = { name: 'Ada Lovelace', check: true, integer: 7 };
const CAPABILITIES = { elicitation: { form: {} } };

let redis: RedisServer;
let nginx: RunningNginx;
const replicas: RunningGateway[] = [];

/** `[method, status, replica port]` of every POST nginx finished, in order. */
async function posts(): Promise<[string, number, number][]> {
  const lines = parseAccessLog(await readFile(join(nginx.prefix, 'access.log'), 'utf8'));
  return lines.filter(([method]) => method === 'POST');
}

const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'legacy-replica-retry', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': CAPABILITIES,
};

/**
 * One modern (2026-07-28) request to the replica at `url` alone, sent as is through Rondo's own
 * client (`forward`: no rounds run, the `input_required` answer comes back as it is).
 */
async function modernRequest(
  url: URL,
  method: string,
  params: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const client = new RondoClient({ era: '2026-07-28', transport: httpTransport({ url }) });
  await client.connect();
  try {
    return await client.forward(method, { ...params, _meta: MODERN_META });
  } finally {
    await client.close();
  }
}

/** Resolves once the replica at `url` lists the eliciting tool; rejects after 30 s. */
async function untilListed(url: URL): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (
    !JSON.stringify(await modernRequest(url, 'tools/list', {}).catch(() => '')).includes(TOOL)
  ) {
    if (Date.now() > deadline) throw new Error(`${url.href} did not list ${TOOL} within 30 s`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The official v2 client pinned to 2026-07-28, answering the form, and the bodies it POSTs. */
async function officialClient() {
  const sent: { method: unknown; retry: boolean; body: string; headers: Headers }[] = [];
  const client = new Client(
    { name: 'legacy-replica-retry', version: '1.0.0' },
    { capabilities: CAPABILITIES, versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  client.setRequestHandler('elicitation/create', async () => ({
    action: 'accept',
    content: ANSWER,
  }));
  const recording: typeof fetch = (input, init) => {
    if (typeof init?.body === 'string') {
      const message = JSON.parse(init.body) as {
        method?: unknown;
        params?: { requestState?: unknown };
      };
      sent.push({
        method: message.method,
        retry: message.params?.requestState !== undefined,
        body: init.body,
        headers: new Headers(init.headers),
      });
    }
    return fetch(input, init);
  };
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${nginx.url}/mcp`), { fetch: recording }),
  );
  return { client, sent };
}

beforeAll(async () => {
  redis = await startRedisServer();
  const config = writeConfig({
    everything: { command: process.execPath, args: [EVERYTHING_MAIN, 'stdio'] },
  });
  // startGateway gives every replica the same RONDO_STATE_KEY, so each opens the others' states.
  for (let index = 0; index < 3; index += 1) {
    replicas.push(await startGateway(config, ['--redis', redis.url]));
  }
  nginx = await startNginx({ upstreams: replicas.map((replica) => Number(replica.url.port)) });
  // Each replica lists the upstream's tools once its own server-everything is up.
  for (const replica of replicas) await untilListed(replica.url);
}, scaled(120_000));

afterAll(async () => {
  await nginx?.stop();
  const running = replicas.filter((replica) => replica.process.signalCode === null);
  await Promise.all(running.map((replica) => replica.close()));
  await redis?.stop();
});

describe(
  'a legacy upstream call suspended on one gateway replica',
  { timeout: scaled(60_000) },
  () => {
    let holderPort = 0;
    let usedRetry: { body: string; headers: Headers } | undefined;

    it('completes when the official client retry lands on another replica behind nginx', async () => {
      const { client, sent } = await officialClient();
      try {
        sent.length = 0;
        const before = (await posts()).length;
        const result = await client.callTool({ name: TOOL, arguments: {} });
        const text = (result.content as { text?: string }[]).map((block) => block.text).join('\n');
        expect(text).toContain('Ada Lovelace');
        // nginx writes a line once it has sent a response; each POST of the call has one, in order.
        await expect.poll(async () => (await posts()).length - before).toBe(sent.length);
        const lines = (await posts()).slice(before);
        const first = sent.findIndex((post) => post.method === 'tools/call' && !post.retry);
        const retry = sent.findIndex((post) => post.method === 'tools/call' && post.retry);
        expect([first, retry].every((index) => index >= 0)).toBe(true);
        expect([lines[first]?.[1], lines[retry]?.[1]]).toEqual([200, 200]);
        holderPort = lines[first]![2];
        expect(lines[retry]![2]).not.toBe(holderPort);
        usedRetry = sent[retry];
      } finally {
        await client.close();
      }
    });

    it('tells a retry of a call that ended, on another replica, that the call is gone', async () => {
      expect(usedRetry).toBeDefined();
      const other = replicas.find((replica) => Number(replica.url.port) !== holderPort)!;
      const response = await fetch(other.url, {
        method: 'POST',
        headers: usedRetry!.headers,
        body: usedRetry!.body,
      });
      const reply = (await response.json()) as { error?: unknown };
      expect(reply.error).toMatchObject({
        code: -32602,
        message:
          'The suspended call to upstream "everything" is gone: it expired (after 300000 ms) or ended; call again',
      });
    });

    it('says so precisely when the replica holding the call has stopped', async () => {
      const [holder, other] = replicas as [RunningGateway, RunningGateway];
      const round = await modernRequest(holder.url, 'tools/call', { name: TOOL, arguments: {} });
      const result = round as {
        resultType: string;
        inputRequests: Record<string, unknown>;
        requestState: string;
      };
      expect(result.resultType).toBe('input_required');
      const [key] = Object.keys(result.inputRequests);
      // SIGKILL: the holder keeps nothing, closes nothing, answers nothing. Its upstream goes with
      // it, as when the replica's host dies (a killed parent leaves its stdio child running).
      const upstreams = execFileSync('ps', ['-o', 'pid=', '--ppid', String(holder.process.pid)], {
        encoding: 'utf8',
      });
      const exited = new Promise((resolve) => holder.process.once('exit', resolve));
      holder.process.kill('SIGKILL');
      await exited;
      for (const pid of upstreams.split(/\s+/).filter(Boolean))
        process.kill(Number(pid), 'SIGKILL');
      const retry = modernRequest(other.url, 'tools/call', {
        name: TOOL,
        arguments: {},
        requestState: result.requestState,
        inputResponses: { [key!]: { action: 'accept', content: ANSWER } },
      });
      await expect(retry).rejects.toMatchObject({
        code: -32603,
        message: expect.stringMatching(
          /^No gateway process answered for the suspended call to upstream "everything" \(held by process \S+\) within 5000 ms: that process has stopped or lost the shared state; call again$/,
        ),
      });
    });
  },
);
