import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFixtureHttp, until, type FixtureHttp } from './support/fixtureServer.js';

/**
 * A fetch that breaks the SSE body of the first POST whose request matches `cut`, right after the
 * first progress event: the connection drops mid-call, as a flaky network would make it.
 */
function droppingFetch(inner: typeof fetch, cut: (body: string) => boolean): typeof fetch {
  let dropped = false;
  return async (input, init) => {
    const response = await inner(input, init);
    const body = typeof init?.body === 'string' ? init.body : '';
    if (dropped || !cut(body) || !response.body) return response;
    dropped = true;
    const reader = response.body.getReader();
    let seen = '';
    const broken = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const { value, done } = await reader.read();
        if (done) return controller.close();
        seen += new TextDecoder().decode(value);
        controller.enqueue(value);
        if (seen.includes('notifications/progress')) {
          await reader.cancel();
          controller.error(new TypeError('network connection lost'));
        }
      },
    });
    return new Response(broken, { status: response.status, headers: response.headers });
  };
}

describe('@modelcontextprotocol/sdk 1.x on the legacy wire over HTTP', () => {
  let fixture: FixtureHttp;
  let client: Client;
  let transport: StreamableHTTPClientTransport;
  const connect = async (fetchImpl: typeof fetch = fixture.fetch) => {
    client = new Client(
      { name: 'http-legacy-test', version: '1.0.0' },
      { capabilities: { elicitation: {} } },
    );
    transport = new StreamableHTTPClientTransport(fixture.url, {
      fetch: fetchImpl,
      reconnectionOptions: {
        initialReconnectionDelay: 10,
        maxReconnectionDelay: 50,
        reconnectionDelayGrowFactor: 1,
        maxRetries: 3,
      },
    });
    await client.connect(transport);
  };
  beforeEach(async () => {
    fixture = await startFixtureHttp({ sseRetryMs: 10 });
  });
  afterEach(async () => {
    await client.close();
    await fixture.close();
  });

  it('opens a session on initialize and the standalone GET stream after it', async () => {
    await connect();
    expect(transport.sessionId).toMatch(/^[\x21-\x7E]+$/);
    await until(() => fixture.seen.some((exchange) => exchange.method === 'GET'));
    const get = fixture.seen.find((exchange) => exchange.method === 'GET')!;
    expect(get).toMatchObject({ status: 200, contentType: 'text/event-stream' });
    expect(get.requestHeaders['mcp-session-id']).toBe(transport.sessionId);
    const { tools } = await client.listTools();
    expect(tools.length).toBeGreaterThan(10);
  });

  it("carries the legacy shim's elicitation on the call's SSE stream, answered by POST", async () => {
    await connect();
    const asked: string[] = [];
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      return { action: 'accept', content: { username: 'testuser', email: 'test@example.com' } };
    });
    const result = await client.callTool({
      name: 'test_elicitation',
      arguments: { message: 'Who are you?' },
    });
    expect(asked).toEqual(['Who are you?']);
    expect(JSON.stringify(result.content)).toContain('testuser');
    const call = fixture.seen.find((exchange) => exchange.rpc === 'tools/call')!;
    expect(call).toMatchObject({ status: 200, contentType: 'text/event-stream' });
    expect(fixture.seen.find((exchange) => exchange.rpc === 'response')).toMatchObject({
      status: 202,
    });
  });

  it('resumes a dropped call stream with Last-Event-ID and still gets the result', async () => {
    await connect(droppingFetch(fixture.fetch, (body) => body.includes('test_tool_with_progress')));
    const progress: number[] = [];
    const result = await client.callTool(
      { name: 'test_tool_with_progress', arguments: {} },
      CallToolResultSchema,
      {
        onprogress: (update) => progress.push(update.progress),
      },
    );
    expect(result.content).toEqual([
      { type: 'text', text: 'Tool with progress executed successfully' },
    ]);
    const resumed = fixture.seen.filter(
      (exchange) => exchange.requestHeaders['last-event-id'] !== undefined,
    );
    expect(resumed).toHaveLength(1);
    expect(resumed[0]).toMatchObject({
      method: 'GET',
      status: 200,
      contentType: 'text/event-stream',
    });
    expect(progress.at(-1)).toBe(100);
  });

  it('ends the session on DELETE; the old id then gets 404', async () => {
    await connect();
    const sessionId = transport.sessionId!;
    await transport.terminateSession();
    expect(fixture.seen.find((exchange) => exchange.method === 'DELETE')).toMatchObject({
      status: 204,
    });
    const stale = await fetch(fixture.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': sessionId,
        'mcp-protocol-version': '2025-11-25',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
    });
    expect(stale.status).toBe(404);
  });
});
