import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  ElicitRequestSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';
import { startCluster, type Cluster } from '../support/cluster.js';
import { legacyCall, until } from './support/requests.js';

// Issue 15: three fixture replicas share their state in a real redis-server behind a real nginx
// round robin (no affinity); the official v1 client keeps one legacy session across all of them.

function legacyClient(): { client: Client; listChanges: () => number } {
  const client = new Client(
    { name: 'cluster-v1', version: '1.0.0' },
    { capabilities: { elicitation: {} } },
  );
  let changes = 0;
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    changes += 1;
  });
  client.setRequestHandler(ElicitRequestSchema, async () => ({
    action: 'accept',
    content: { username: 'ada', email: 'ada@example.test' },
  }));
  return { client, listChanges: () => changes };
}

describe('a legacy session across three replicas behind nginx', () => {
  let cluster: Cluster;
  beforeAll(async () => {
    cluster = await startCluster(3);
  }, scaled(60_000));
  afterAll(async () => {
    await cluster?.stop();
  });

  it('spreads calls over the replicas and answers elicitation on another one', async () => {
    const { client } = legacyClient();
    const transport = new StreamableHTTPClientTransport(new URL(cluster.url));
    await client.connect(transport);
    try {
      for (let index = 0; index < 6; index += 1) {
        const result = await client.callTool({ name: 'test_simple_text', arguments: {} });
        expect(result.content).toEqual([
          { type: 'text', text: 'This is a simple text response for testing.' },
        ]);
      }
      const before = (await cluster.served()).length;
      const asked = await client.callTool({
        name: 'test_elicitation',
        arguments: { message: 'Who are you?' },
      });
      expect(asked.content).toEqual([
        {
          type: 'text',
          text: 'User response: action=accept, content={"username":"ada","email":"ada@example.test"}',
        },
      ]);
      const served = await cluster.served();
      const posts = served.filter(([method]) => method === 'POST');
      expect(new Set(posts.map(([, , port]) => port)).size).toBe(3);
      // The tools/call and the client's answer to its elicitation: two POSTs, two replicas.
      const elicitation = served.slice(before).filter(([method]) => method === 'POST');
      expect(new Set(elicitation.map(([, , port]) => port)).size).toBeGreaterThan(1);
    } finally {
      await client.close();
    }
  });

  it('delivers a list change made on any replica once to the GET stream, wherever it is', async () => {
    const { client, listChanges } = legacyClient();
    const transport = new StreamableHTTPClientTransport(new URL(cluster.url));
    await client.connect(transport);
    try {
      await until(() => transport.sessionId !== undefined, 'the session');
      // Give the client's GET stream a moment to open before the changes.
      await new Promise((resolve) => setTimeout(resolve, 300));
      for (const replica of cluster.replicas)
        expect(
          await legacyCall(replica.url, transport.sessionId!, 'test_trigger_tool_change'),
        ).toBe(200);
      await until(() => listChanges() === 3, 'three list changes');
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(listChanges()).toBe(3);
    } finally {
      await client.close();
    }
  });

  it('resumes a stream the server closed on another replica, with the answer', async () => {
    const { client } = legacyClient();
    await client.connect(new StreamableHTTPClientTransport(new URL(cluster.url)));
    try {
      const before = (await cluster.served()).length;
      const result = await client.callTool({ name: 'test_reconnection', arguments: {} });
      expect(result.content).toEqual([
        expect.objectContaining({ type: 'text', text: expect.stringMatching(/reconnect/i) }),
      ]);
      const gets = (await cluster.served()).slice(before).filter(([method]) => method === 'GET');
      expect(gets.length).toBeGreaterThan(0);
    } finally {
      await client.close();
    }
  });

  it(
    'keeps the session when the replica that created it is killed with SIGKILL',
    async () => {
      const { client, listChanges } = legacyClient();
      const transport = new StreamableHTTPClientTransport(new URL(cluster.url), {
        reconnectionOptions: {
          initialReconnectionDelay: 100,
          maxReconnectionDelay: 500,
          reconnectionDelayGrowFactor: 1.5,
          maxRetries: 20,
        },
      });
      const before = (await cluster.served()).length;
      await client.connect(transport);
      const [, , creatorPort] = (await cluster.served())[before]!;
      const creator = cluster.replicas.find((replica) => replica.port === creatorPort)!;
      const others = cluster.replicas.filter((replica) => replica !== creator);
      try {
        await creator.kill('SIGKILL');
        for (let index = 0; index < 4; index += 1) {
          const result = await client.callTool({ name: 'test_simple_text', arguments: {} });
          expect(result.isError).toBeFalsy();
        }
        const asked = await client.callTool({
          name: 'test_elicitation',
          arguments: { message: 'Still there?' },
        });
        expect(JSON.stringify(asked.content)).toContain('ada@example.test');
        // With one replica left, the GET stream is on it (or comes back to it) whatever it was on.
        await others[0]!.kill('SIGKILL');
        const survivor = others[1]!;
        const seen = listChanges();
        const deadline = Date.now() + 15_000;
        while (listChanges() <= seen && Date.now() < deadline) {
          await legacyCall(survivor.url, transport.sessionId!, 'test_trigger_tool_change');
          await new Promise((resolve) => setTimeout(resolve, 500));
        }
        expect(listChanges()).toBeGreaterThan(seen);
      } finally {
        await client.close();
        await creator.start();
        await others[0]!.start();
      }
    },
    scaled(60_000),
  );
});
