import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type HandlerContext } from '@rondo/core';
import {
  contents,
  embeddedResource,
  image,
  message,
  messages,
  results,
  structured,
  text,
  textContent,
} from '@rondo/protocol';
import { LegacyTestClient, checkAndCloseClients, waitFor } from './support/legacyClient.js';

afterEach(checkAndCloseClients);

function fullServer(pageSize = 100) {
  return createServer({ name: 'full', version: '1.0.0', pageSize, log: () => {} })
    .tool(
      'add',
      {
        description: 'adds',
        input: {
          type: 'object',
          properties: { a: { type: 'number' }, b: { type: 'number' } },
          required: ['a', 'b'],
        },
      },
      ({ a, b }) => text(String(Number(a) + Number(b))),
    )
    .tool('mixed', { description: 'mixed content' }, () =>
      results([
        text('Multiple content types test:'),
        image('iVBORw0KGgo=', 'image/png'),
        embeddedResource(textContent('test://m', 'application/json', '{}')),
      ]),
    )
    .tool(
      'weather',
      {
        description: 'structured',
        output: {
          type: 'object',
          properties: { temperature: { type: 'number' } },
          required: ['temperature'],
        },
      },
      () => structured({ temperature: 21 }),
    )
    .prompt(
      'greet',
      { description: 'greets', arguments: [{ name: 'who', required: true }] },
      ({ who }) => messages([message('user', `Hello ${who}`)]),
    )
    .resource('test://static-text', { name: 'static', mimeType: 'text/plain' }, (uri) =>
      contents([textContent(uri, 'text/plain', 'static text')]),
    )
    .resourceTemplate('test://template/{id}/data', { name: 'template' }, (uri, vars) =>
      contents([textContent(uri, 'application/json', JSON.stringify({ id: vars.id }))]),
    )
    .completion({ prompt: 'greet' }, 'who', (value) =>
      ['Alice', 'Bob'].filter((n) => n.startsWith(value)),
    );
}

describe('legacy methods', () => {
  it('lists and calls tools, with validated arguments as a tool error', async () => {
    const client = await LegacyTestClient.open(fullServer());
    const tools = await client.call('tools/list');
    expect((tools.tools as { name: string }[]).map((t) => t.name)).toEqual([
      'add',
      'mixed',
      'weather',
    ]);
    expect(await client.call('tools/call', { name: 'add', arguments: { a: 2, b: 3 } })).toEqual({
      content: [{ type: 'text', text: '5' }],
    });
    const bad = await client.call('tools/call', { name: 'add', arguments: { a: 'x' } });
    expect(bad.isError).toBe(true);
    const mixed = await client.call('tools/call', { name: 'mixed' });
    expect((mixed.content as { type: string }[]).map((c) => c.type)).toEqual([
      'text',
      'image',
      'resource',
    ]);
    expect(await client.call('tools/call', { name: 'weather', arguments: {} })).toMatchObject({
      structuredContent: { temperature: 21 },
    });
    expect(await client.request('tools/call', { name: 'nope' })).toMatchObject({
      error: { code: -32602 },
    });
  });

  it('paginates lists with opaque cursors and refuses a bad cursor', async () => {
    const client = await LegacyTestClient.open(fullServer(2));
    const first = await client.call('tools/list');
    expect((first.tools as unknown[]).length).toBe(2);
    expect(typeof first.nextCursor).toBe('string');
    const second = await client.call('tools/list', { cursor: first.nextCursor });
    expect((second.tools as { name: string }[]).map((t) => t.name)).toEqual(['weather']);
    expect(second.nextCursor).toBeUndefined();
    expect(await client.request('tools/list', { cursor: 'garbage' })).toMatchObject({
      error: { code: -32602 },
    });
  });

  it('gets prompts and completes their arguments', async () => {
    const client = await LegacyTestClient.open(fullServer());
    expect(await client.call('prompts/list')).toEqual({
      prompts: [
        { name: 'greet', description: 'greets', arguments: [{ name: 'who', required: true }] },
      ],
    });
    expect(await client.call('prompts/get', { name: 'greet', arguments: { who: 'Ann' } })).toEqual({
      messages: [{ role: 'user', content: { type: 'text', text: 'Hello Ann' } }],
    });
    expect(await client.request('prompts/get', { name: 'greet' })).toMatchObject({
      error: { code: -32602 },
    });
    const completion = await client.call('completion/complete', {
      ref: { type: 'ref/prompt', name: 'greet' },
      argument: { name: 'who', value: 'A' },
    });
    expect(completion).toEqual({ completion: { values: ['Alice'] } });
  });

  it('lists and reads resources and templates; a missing resource is -32002 with data.uri', async () => {
    const client = await LegacyTestClient.open(fullServer());
    expect(await client.call('resources/list')).toEqual({
      resources: [{ uri: 'test://static-text', name: 'static', mimeType: 'text/plain' }],
    });
    expect(await client.call('resources/templates/list')).toEqual({
      resourceTemplates: [{ uriTemplate: 'test://template/{id}/data', name: 'template' }],
    });
    expect(await client.call('resources/read', { uri: 'test://static-text' })).toEqual({
      contents: [{ uri: 'test://static-text', mimeType: 'text/plain', text: 'static text' }],
    });
    const templated = await client.call('resources/read', { uri: 'test://template/123/data' });
    expect(JSON.stringify(templated)).toContain('123');
    const missing = await client.request('resources/read', { uri: 'test://nothing' });
    expect(missing).toMatchObject({ error: { code: -32002, data: { uri: 'test://nothing' } } });
  });

  it('sends resources/updated only for subscribed URIs, until unsubscribed', async () => {
    const server = fullServer();
    const client = await LegacyTestClient.open(server);
    expect(await client.call('resources/subscribe', { uri: 'test://static-text' })).toEqual({});
    server.resourceUpdated('test://other');
    server.resourceUpdated('test://static-text');
    const updated = await client.memory.waitForPeer(
      (m) => 'method' in m && m.method === 'notifications/resources/updated',
    );
    expect(updated).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/resources/updated',
      params: { uri: 'test://static-text' },
    });
    expect(client.memory.peerMessages).toHaveLength(1);
    await client.call('resources/unsubscribe', { uri: 'test://static-text' });
    server.resourceUpdated('test://static-text');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(client.memory.peerMessages).toHaveLength(1);
  });

  it('announces tools/list_changed after a tool is added, and the list already has it', async () => {
    const server = fullServer();
    const client = await LegacyTestClient.open(server);
    server.tool('late', { description: 'added later' }, () => 'late');
    await client.memory.waitForPeer(
      (m) => 'method' in m && m.method === 'notifications/tools/list_changed',
    );
    const tools = await client.call('tools/list');
    expect((tools.tools as { name: string }[]).map((t) => t.name)).toContain('late');
    server.prompt('p2', { description: 'd' }, () => messages([]));
    await client.memory.waitForPeer(
      (m) => 'method' in m && m.method === 'notifications/prompts/list_changed',
    );
  });

  it('filters notifications/message by the level the client set', async () => {
    const server = fullServer().tool('chatty', { description: 'logs' }, (_args, ctx) => {
      ctx.log('debug', 'debug line');
      ctx.log('info', 'info line', 'chatty');
      ctx.log('error', { problem: 'error line' });
      return 'done';
    });
    const client = await LegacyTestClient.open(server);
    expect(await client.call('logging/setLevel', { level: 'warning' })).toEqual({});
    const warningOnly = client.send('tools/call', { name: 'chatty' });
    await warningOnly.ended;
    expect(warningOnly.sent.map((m) => ('params' in m ? m.params?.level : undefined))).toEqual([
      'error',
    ]);
    await client.call('logging/setLevel', { level: 'debug' });
    const everything = client.send('tools/call', { name: 'chatty' });
    await everything.ended;
    expect(everything.sent).toHaveLength(3);
    expect(everything.sent[1]).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/message',
      params: { level: 'info', data: 'info line', logger: 'chatty' },
    });
    expect(await client.request('logging/setLevel', { level: 'loud' })).toMatchObject({
      error: { code: -32602 },
    });
  });

  it('sends progress on the request exchange only when the request has a progressToken', async () => {
    const server = fullServer().tool('slowly', { description: 'progress' }, (_args, ctx) => {
      for (const step of [0, 50, 50, 100]) ctx.progress(step, 100, `at ${step}`);
      return 'done';
    });
    const client = await LegacyTestClient.open(server);
    const withToken = client.send('tools/call', {
      name: 'slowly',
      _meta: { progressToken: 'progress-test-1' },
    });
    await withToken.ended;
    expect(withToken.sent).toEqual(
      [0, 50, 100].map((progress) => ({
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: {
          progressToken: 'progress-test-1',
          progress,
          total: 100,
          message: `at ${progress}`,
        },
      })),
    );
    const without = client.send('tools/call', { name: 'slowly' });
    await without.ended;
    expect(without.sent).toEqual([]);
  });

  it('aborts a slow tool when the client cancels it, and sends no answer', async () => {
    let seen: HandlerContext | undefined;
    const server = fullServer().tool('slow', { description: 'waits' }, (_args, ctx) => {
      seen = ctx;
      return new Promise((resolve) =>
        ctx.signal.addEventListener('abort', () => resolve(text('aborted'))),
      );
    });
    const client = await LegacyTestClient.open(server);
    const record = client.send('tools/call', { name: 'slow' }, 'slow-1');
    await waitFor(() => seen, 'the handler to start');
    expect(client.memory.connection.inFlight).toBe(1);
    client.notify('notifications/cancelled', { requestId: 'slow-1', reason: 'user stop' });
    expect(seen!.signal.aborted).toBe(true);
    expect(await record.ended).toBeUndefined();
    expect(client.memory.connection.inFlight).toBe(0);
  });

  it('aborts in-flight handlers when the connection closes', async () => {
    let signal: AbortSignal | undefined;
    const server = fullServer().tool('forever', { description: 'never ends' }, (_args, ctx) => {
      signal = ctx.signal;
      return new Promise(() => {});
    });
    const client = await LegacyTestClient.open(server);
    client.send('tools/call', { name: 'forever' });
    await waitFor(() => signal, 'the handler to start');
    client.memory.connection.close();
    expect(signal!.aborted).toBe(true);
    expect(client.memory.connection.stateful).toBe(false);
    server.tool('after-close', {}, () => 'x');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(client.memory.peerMessages).toEqual([]);
  });

  it('tells cancellation listeners of a cancellation and of a closed connection', async () => {
    const heard: unknown[] = [];
    let started = 0;
    const server = fullServer().tool('hears', { description: 'listens' }, (_args, ctx) => {
      const stop = ctx.cancellation.onAbort((reason) =>
        heard.push(reason instanceof Error && reason.message),
      );
      expect(stop).toBeTypeOf('function');
      started += 1;
      return new Promise(() => {});
    });
    const client = await LegacyTestClient.open(server);
    client.send('tools/call', { name: 'hears' }, 'hears-1');
    client.send('tools/call', { name: 'hears' }, 'hears-2');
    await waitFor(() => (started === 2 ? true : undefined), 'both handlers to start');
    client.notify('notifications/cancelled', { requestId: 'hears-1', reason: 'user stop' });
    expect(heard).toEqual(['user stop']);
    client.memory.connection.close();
    expect(heard).toHaveLength(2);
  });

  it('checks params against the legacy schemas, naming the member', async () => {
    const client = await LegacyTestClient.open(fullServer());
    const wrong = await client.request('tools/call', { name: 42 });
    expect(wrong).toMatchObject({ error: { code: -32602 } });
    expect(JSON.stringify(wrong)).toContain('params.name');
    const noInfo = new LegacyTestClient(fullServer());
    expect(
      await noInfo.request('initialize', { protocolVersion: '2025-11-25', capabilities: {} }),
    ).toMatchObject({
      error: { code: -32602 },
    });
  });

  it('refuses a session request naming an unknown MCP-Protocol-Version before it runs', async () => {
    const client = await LegacyTestClient.open(fullServer());
    const request = { jsonrpc: '2.0', method: 'ping', params: {} } as const;
    const bad = client.memory.send(
      { ...request, id: 'bad' },
      { 'mcp-protocol-version': '1999-01-01' },
    );
    expect(await bad.ended).toMatchObject({ error: { code: -32600 } });
    expect(bad.disposition).toBe('refused');
    const good = client.memory.send(
      { ...request, id: 'good' },
      { 'mcp-protocol-version': '2025-06-18' },
    );
    expect(await good.ended).toMatchObject({ result: {} });
    expect(good.disposition).toBeUndefined();
  });

  it('drops a response nobody waits for and refuses a request id already in flight', async () => {
    let release!: () => void;
    const server = fullServer().tool(
      'held',
      {},
      () => new Promise((resolve) => (release = () => resolve(text('released')))),
    );
    const client = await LegacyTestClient.open(server);
    const stray = client.memory.send({ jsonrpc: '2.0', id: 'rondo-99', result: {} });
    expect(await stray.ended).toBeUndefined();
    const first = client.send('tools/call', { name: 'held' }, 'same');
    await waitFor(() => release, 'the handler to start');
    const second = client.send('tools/call', { name: 'held' }, 'same');
    expect(await second.ended).toMatchObject({ error: { code: -32600 } });
    // Inside a session an error is an ordinary answer, never an HTTP-level refusal.
    expect(second.disposition).toBeUndefined();
    release();
    expect(await first.ended).toMatchObject({ result: { content: [{ text: 'released' }] } });
  });
});
