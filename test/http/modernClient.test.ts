import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFixtureHttp, until, type FixtureHttp } from './support/fixtureServer.js';

describe('@modelcontextprotocol/client 2.x on the modern wire over HTTP', () => {
  let fixture: FixtureHttp;
  let client: Client;
  beforeEach(async () => {
    fixture = await startFixtureHttp();
    client = new Client(
      { name: 'http-modern-test', version: '1.0.0' },
      {
        capabilities: { elicitation: { form: {} } },
        versionNegotiation: { mode: { pin: '2026-07-28' } },
      },
    );
    await client.connect(new StreamableHTTPClientTransport(fixture.url, { fetch: fixture.fetch }));
  });
  afterEach(async () => {
    await client.close();
    await fixture.close();
  });

  const exchangesOf = (rpc: string) => fixture.seen.filter((exchange) => exchange.rpc === rpc);

  it('negotiates the modern era and gets JSON responses without a session', async () => {
    expect(client.getProtocolEra()).toBe('modern');
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('test_simple_text');
    const [list] = exchangesOf('tools/list');
    expect(list).toMatchObject({ method: 'POST', status: 200, contentType: 'application/json' });
    expect(
      fixture.seen.every((exchange) => exchange.requestHeaders['mcp-session-id'] === undefined),
    ).toBe(true);
  });

  it('streams progress on the request SSE response, then the result', async () => {
    const progress: number[] = [];
    const result = await client.callTool(
      { name: 'test_tool_with_progress', arguments: {} },
      { onprogress: (update) => progress.push(update.progress) },
    );
    expect(result.content).toEqual([
      { type: 'text', text: 'Tool with progress executed successfully' },
    ]);
    expect(progress).toEqual([0, 50, 100]);
    expect(exchangesOf('tools/call')[0]).toMatchObject({
      status: 200,
      contentType: 'text/event-stream',
    });
  });

  it('keeps a subscriptions/listen stream open for list changes until the client closes it', async () => {
    let changes = 0;
    client.setNotificationHandler('notifications/tools/list_changed', () => {
      changes += 1;
    });
    const subscription = await client.listen({ toolsListChanged: true });
    expect(subscription.honoredFilter).toMatchObject({ toolsListChanged: true });
    await client.callTool({ name: 'test_trigger_tool_change', arguments: {} });
    await until(() => changes === 1);
    await subscription.close();
    expect(await subscription.closed).toBe('local');
    await until(() => exchangesOf('notifications/cancelled').length === 1);
    expect(exchangesOf('notifications/cancelled')[0]!.status).toBe(202);
    expect(exchangesOf('subscriptions/listen')[0]).toMatchObject({
      status: 200,
      contentType: 'text/event-stream',
    });
  });

  it('turns a modern protocol error into a typed error with status 400', async () => {
    const failure = await client.callTool({ name: 'test_missing_capability', arguments: {} }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toMatchObject({ code: -32021 });
    expect(exchangesOf('tools/call')[0]!.status).toBe(400);
  });
});
