import { existsSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_CLI, startFixtureProcess, type FixtureProcess } from './support/fixtureProcess.js';
import { WsClientTransport } from './support/wsClientTransport.js';

const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';
const built = existsSync(FIXTURE_CLI);
if (!built)
  console.warn(`modern WebSocket client test skipped: the fixture is not built (${FIXTURE_CLI})`);

let fixture: FixtureProcess;
let client: Client;
let transport: WsClientTransport;
beforeAll(async () => {
  if (built) fixture = await startFixtureProcess();
});
afterAll(async () => {
  await fixture?.stop();
});
afterEach(async () => {
  await client?.close();
});

async function connectModern(): Promise<void> {
  client = new Client(
    { name: 'modern-ws-test', version: '1.0.0' },
    {
      capabilities: { elicitation: { form: {} } },
      versionNegotiation: { mode: { pin: '2026-07-28' } },
    },
  );
  client.setRequestHandler('elicitation/create', async () => ({
    action: 'accept',
    content: { name: 'Alice' },
  }));
  transport = new WsClientTransport(fixture.url);
  await client.connect(transport);
}

describe.skipIf(!built)('the official v2 client in the modern era over WebSocket', () => {
  it('negotiates 2026-07-28 with server/discover and no initialize', async () => {
    await connectModern();
    expect(client.getProtocolEra()).toBe('modern');
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    expect(transport.sent.map((m) => m.method)).not.toContain('initialize');
  });

  it('completes an MRTR elicitation round trip on one socket', async () => {
    await connectModern();
    const result = await client.callTool({
      name: 'test_input_required_result_elicitation',
      arguments: {},
    });
    expect(result.content).toEqual([{ type: 'text', text: 'Hello, Alice!' }]);
    const calls = transport.sent.filter((m) => m.method === 'tools/call');
    expect(calls).toHaveLength(2);
    const firstAnswer = transport.received.find((m) => m.id === calls[0]!.id) as {
      result: Record<string, unknown>;
    };
    expect(firstAnswer.result).toMatchObject({
      resultType: 'input_required',
      inputRequests: { user_name: {} },
    });
    const retry = calls[1]!.params as Record<string, unknown>;
    expect(calls[1]!.id).not.toBe(calls[0]!.id);
    expect(retry.inputResponses).toEqual({
      user_name: { action: 'accept', content: { name: 'Alice' } },
    });
    expect(retry.requestState).toBe(firstAnswer.result.requestState);
  });

  it('streams request-scoped progress before the result', async () => {
    await connectModern();
    const progress: number[] = [];
    await client.callTool(
      { name: 'test_tool_with_progress', arguments: {} },
      { onprogress: (p) => progress.push(p.progress) },
    );
    // The client hands notifications to their handlers a microtask late but settles responses at
    // once, so a last progress frame decoded in the same tick as the result can miss its callback.
    expect(progress.length).toBeGreaterThanOrEqual(2);
    expect([...progress].sort((a, b) => a - b)).toEqual(progress);
    const call = transport.sent.find((m) => m.method === 'tools/call')!;
    const token = (call.params as { _meta: { progressToken: unknown } })._meta.progressToken;
    const wire = transport.received.filter((m) => m.method === 'notifications/progress');
    expect(wire.map((m) => (m.params as { progress: number }).progress)).toEqual([0, 50, 100]);
    expect(
      wire.every((m) => (m.params as { progressToken: unknown }).progressToken === token),
    ).toBe(true);
    const resultIndex = transport.received.findIndex((m) => m.id === call.id);
    expect(transport.received.indexOf(wire.at(-1)!)).toBeLessThan(resultIndex);
  });

  it('delivers subscriptions/listen notifications, tagged with the subscription, after a tool list change', async () => {
    await connectModern();
    const changed = new Promise<void>((resolve) =>
      client.setNotificationHandler('notifications/tools/list_changed', () => resolve()),
    );
    const subscription = await client.listen({ toolsListChanged: true });
    await client.callTool({ name: 'test_trigger_tool_change', arguments: {} });
    await changed;
    const listen = transport.sent.find((m) => m.method === 'subscriptions/listen')!;
    const ack = transport.received.find(
      (m) => m.method === 'notifications/subscriptions/acknowledged',
    )!;
    const note = transport.received.find((m) => m.method === 'notifications/tools/list_changed')!;
    for (const message of [ack, note]) {
      expect((message.params as { _meta: Record<string, unknown> })._meta[SUBSCRIPTION_ID]).toBe(
        listen.id,
      );
    }
    await subscription.close();
  });
});
