import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCluster, type Cluster } from '../support/cluster.js';
import { INITIALIZE, legacyPost, modernCall, until } from './support/requests.js';
import { scaled } from '@rondo/test-support/timeFactor';

// Issue 15: the official v2 client on the modern wire through three replicas behind nginx, and
// what a Redis outage does to each era.

/** The status of `send` once it is no 503 (a replica still reconnecting to Redis), within 10 s. */
async function settledStatus(send: () => Promise<Response>): Promise<number> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const response = await send();
    await response.text();
    if (response.status !== 503 || Date.now() > deadline) return response.status;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

function modernClient(): Client {
  const client = new Client(
    { name: 'cluster-v2', version: '1.0.0' },
    {
      capabilities: { elicitation: { form: {} }, sampling: {}, roots: {} },
      versionNegotiation: { mode: { pin: '2026-07-28' } },
    },
  );
  client.setRequestHandler('elicitation/create', async () => ({
    action: 'accept',
    content: { name: 'Alice' },
  }));
  client.setRequestHandler('sampling/createMessage', async () => ({
    role: 'assistant',
    model: 'test-model',
    content: { type: 'text', text: 'Hello there!' },
  }));
  client.setRequestHandler('roots/list', async () => ({
    roots: [{ uri: 'file:///r', name: 'R' }],
  }));
  return client;
}

describe('the modern era across three replicas behind nginx', () => {
  let cluster: Cluster;
  beforeAll(async () => {
    cluster = await startCluster(3);
  }, scaled(60_000));
  afterAll(async () => {
    await cluster?.stop();
  });

  it('answers MRTR rounds on whichever replica each round reaches', async () => {
    const client = modernClient();
    await client.connect(new StreamableHTTPClientTransport(new URL(cluster.url)));
    try {
      const before = (await cluster.served()).length;
      const result = await client.callTool({
        name: 'test_input_required_result_multiple_inputs',
        arguments: {},
      });
      expect(result.content).toEqual([
        { type: 'text', text: 'Name: Alice; greeting: Hello there!; roots: 1' },
      ]);
      const rounds = (await cluster.served()).slice(before).filter(([method]) => method === 'POST');
      expect(rounds.length).toBeGreaterThan(1);
      expect(new Set(rounds.map(([, , port]) => port)).size).toBeGreaterThan(1);
    } finally {
      await client.close();
    }
  });

  it('feeds a subscriptions/listen stream with a change made on every replica', async () => {
    const client = modernClient();
    await client.connect(new StreamableHTTPClientTransport(new URL(cluster.url)));
    let changes = 0;
    client.setNotificationHandler('notifications/tools/list_changed', () => {
      changes += 1;
    });
    try {
      const subscription = await client.listen({ toolsListChanged: true });
      for (const replica of cluster.replicas) {
        const response = await modernCall(replica.url, 'test_trigger_tool_change');
        expect(response.status).toBe(200);
        await response.text();
      }
      await until(() => changes === 3, 'three list changes');
      await subscription.close();
    } finally {
      await client.close();
    }
  });

  it(
    'fails what needs Redis with a clear 503 while it is down, serves the rest, then recovers',
    async () => {
      const opened = await legacyPost(cluster.url, INITIALIZE);
      const sessionId = opened.headers.get('mcp-session-id')!;
      await opened.text();
      await cluster.redis.down();
      try {
        const started = Date.now();
        const legacy = await legacyPost(
          cluster.url,
          { jsonrpc: '2.0', id: 2, method: 'tools/list' },
          sessionId,
        );
        expect(legacy.status).toBe(503);
        expect(await legacy.text()).toMatch(/shared session store failed.*Redis/i);
        expect(Date.now() - started).toBeLessThan(scaled(3000));
        const fresh = await legacyPost(cluster.url, INITIALIZE);
        expect(fresh.status).toBe(503);
        await fresh.text();
        const modern = await modernCall(cluster.url, 'test_simple_text');
        expect(modern.status).toBe(200);
        expect(await modern.text()).toContain('simple text response');
      } finally {
        await cluster.redis.up();
      }
      // Redis came back empty (it keeps nothing on disk here). Every replica reconnects by itself:
      // then the old session is unknown on each, and a new one works.
      for (const replica of cluster.replicas) {
        expect(await settledStatus(() => legacyPost(replica.url, INITIALIZE))).toBe(200);
        const list = { jsonrpc: '2.0', id: 3, method: 'tools/list' };
        expect(await settledStatus(() => legacyPost(replica.url, list, sessionId))).toBe(404);
      }
    },
    scaled(60_000),
  );
});
