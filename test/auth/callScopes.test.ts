import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { legacyEra } from '@rondo/adapter-2025';
import { modernEra } from '@rondo/adapter-2026';
import { staticTokenVerifier } from '@rondo/auth';
import { INSUFFICIENT_SCOPE, createEndpoint } from '@rondo/core';
import { contents, createServer, messages, serve, text, textContent, message } from '@rondo/server';
import { MemoryConnection } from '@rondo/test-support/memoryConnection';

// Issue 28, per-call scopes: a tool, prompt, resource or template may require scopes to be called,
// apart from who may see it. Without them: HTTP 403 with the step-up challenge naming what this
// call needs (the endpoint's required scopes included), the JSON-RPC error -32003 on every other
// transport; both eras alike.

const RESOURCE = 'http://127.0.0.1/mcp';
const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'scopes-test', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
const authFor = (resource: string) => ({
  resource,
  authorizationServers: ['https://auth.example'],
  requiredScopes: ['mcp'],
  verifyToken: staticTokenVerifier({
    audience: resource,
    tokens: {
      basic: { subject: 'bob', scopes: ['mcp'] },
      deployer: { subject: 'ada', scopes: ['mcp', 'deploy', 'secrets:read'] },
    },
  }),
});
const auth = authFor(RESOURCE);

function scopedServer() {
  return (
    createServer({
      name: 'scoped',
      version: '1.0.0',
      requestState: { key: 'call-scopes-test-key-0123456789abcdef012345' },
    })
      .tool('deploy', { description: 'Deploys.', scopes: ['deploy'] }, (_a, ctx) =>
        text(`deployed by ${ctx.principal?.id ?? '?'}`),
      )
      .tool('status', { description: 'Anyone.' }, () => text('green'))
      .prompt(
        'incident',
        {
          description: 'Secret prompt',
          scopes: ['secrets:read'],
          arguments: [{ name: 'code', required: false }],
        },
        () => messages([message('user', text('the incident'))]),
      )
      .resource('secret://plan', { name: 'plan', scopes: ['secrets:read'] }, (uri) =>
        contents([textContent(uri, 'text/plain', 'the plan')]),
      )
      .resourceTemplate('secret://doc/{id}', { name: 'doc', scopes: ['secrets:read'] }, (uri) =>
        contents([textContent(uri, 'text/plain', 'a doc')]),
      )
      // Completion values are the guarded names themselves: they need the same scopes (issue 39).
      .completion({ prompt: 'incident' }, 'code', () => ['INC-SECRET-1'])
      .completion({ resource: 'secret://doc/{id}' }, 'id', () => ['doc-secret-7'])
  );
}

const completePrompt = {
  ref: { type: 'ref/prompt', name: 'incident' },
  argument: { name: 'code', value: '' },
};
const completeTemplate = {
  ref: { type: 'ref/resource', uri: 'secret://doc/{id}' },
  argument: { name: 'id', value: '' },
};

const body = (id: number, method: string, params: object, modern: boolean) => ({
  jsonrpc: '2.0',
  id,
  method,
  params: modern ? { ...params, _meta: META } : params,
});

describe('per-call scopes over Streamable HTTP', () => {
  let url: string;
  let close: () => Promise<void>;
  beforeAll(async () => {
    const running = await serve(scopedServer(), { transport: 'http', port: 0, auth });
    url = running.url;
    close = () => running.close();
  });
  afterAll(async () => close?.());

  const post = (payload: object, token: string, headers: Record<string, string> = {}) =>
    fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${token}`,
        ...headers,
      },
      body: JSON.stringify(payload),
    });
  const modernHeaders = (method: string, name: string) => ({
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': method,
    ...(name === '' ? {} : { 'mcp-name': name }),
  });

  it.each([
    ['tools/call', { name: 'deploy', arguments: {} }, 'deploy', 'mcp deploy', 'tool "deploy"'],
    ['prompts/get', { name: 'incident' }, 'incident', 'mcp secrets:read', 'prompt "incident"'],
    [
      'resources/read',
      { uri: 'secret://plan' },
      'secret://plan',
      'mcp secrets:read',
      'secret://plan',
    ],
    ['resources/read', { uri: 'secret://doc/7' }, 'secret://doc/7', 'mcp secrets:read', 'doc/7'],
    ['completion/complete', completePrompt, '', 'mcp secrets:read', 'prompt "incident"'],
    [
      'completion/complete',
      completeTemplate,
      '',
      'mcp secrets:read',
      'resource template "secret://doc/{id}"',
    ],
  ])(
    'modern %s without the scopes: 403 naming them, then 200 with them',
    async (method, params, name, scope, target) => {
      const refused = await post(
        body(1, method, params, true),
        'basic',
        modernHeaders(method, name),
      );
      expect(refused.status).toBe(403);
      expect(refused.headers.get('www-authenticate')).toBe(
        `Bearer error="insufficient_scope", scope="${scope}", resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource/mcp"`,
      );
      const answer = (await refused.json()) as {
        error: { code: number; message: string; data: object };
      };
      expect(answer.error.code).toBe(INSUFFICIENT_SCOPE);
      expect(answer.error.message).toContain(target);
      expect(answer.error.data).toEqual({
        error: 'insufficient_scope',
        requiredScopes: scope.split(' ').slice(1),
      });
      const served = await post(
        body(2, method, params, true),
        'deployer',
        modernHeaders(method, name),
      );
      const text = await served.text();
      expect(served.status, text).toBe(200);
      expect(JSON.parse(text), text).toHaveProperty('result');
    },
  );

  it('lists a scoped tool to a caller without its scopes (it is not hidden) and serves unscoped ones', async () => {
    const listed = await post(body(3, 'tools/list', {}, true), 'basic', {
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/list',
    });
    const page = (await listed.json()) as { result: { tools: { name: string }[] } };
    expect(page.result.tools.map((tool) => tool.name)).toEqual(['deploy', 'status']);
    const status = await post(
      body(4, 'tools/call', { name: 'status', arguments: {} }, true),
      'basic',
      modernHeaders('tools/call', 'status'),
    );
    expect(status.status).toBe(200);
  });

  it('legacy session: the same 403 mid-session, and the session goes on serving', async () => {
    const init = await post(
      body(
        1,
        'initialize',
        {
          protocolVersion: '2025-11-25',
          capabilities: {},
          clientInfo: { name: 'scopes-test', version: '1.0.0' },
        },
        false,
      ),
      'basic',
    );
    const session = init.headers.get('mcp-session-id')!;
    const headers = { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
    await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, 'basic', headers);
    const refused = await post(
      body(2, 'tools/call', { name: 'deploy', arguments: {} }, false),
      'basic',
      headers,
    );
    expect(refused.status).toBe(403);
    expect(refused.headers.get('www-authenticate')).toContain(
      'error="insufficient_scope", scope="mcp deploy"',
    );
    expect(((await refused.json()) as { error: { code: number } }).error.code).toBe(
      INSUFFICIENT_SCOPE,
    );
    const status = await post(
      body(3, 'tools/call', { name: 'status', arguments: {} }, false),
      'basic',
      headers,
    );
    expect(status.status).toBe(200);
    expect(await status.json()).toMatchObject({ result: { content: [{ text: 'green' }] } });
    for (const [id, params] of [
      [4, completePrompt],
      [5, completeTemplate],
    ] as const) {
      const completion = await post(
        body(id, 'completion/complete', params, false),
        'basic',
        headers,
      );
      expect(completion.status).toBe(403);
      const answer = (await completion.json()) as { error?: { code: number }; result?: unknown };
      expect(answer.error?.code).toBe(INSUFFICIENT_SCOPE);
      expect(answer.result).toBeUndefined();
    }
  });
});

describe('per-call scopes without HTTP', () => {
  it('WebSocket: the JSON-RPC error -32003 with the scopes, the socket open', async () => {
    const running = await serve(scopedServer(), {
      transport: 'ws',
      port: 0,
      auth: authFor('http://127.0.0.1/ws'),
    });
    try {
      const socket = new WebSocket(running.url, ['mcp'], {
        headers: { authorization: 'Bearer basic' },
      });
      await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
      const answers: Record<string, unknown>[] = [];
      socket.on('message', (data: Buffer) =>
        answers.push(JSON.parse(data.toString('utf8')) as Record<string, unknown>),
      );
      socket.send(JSON.stringify(body(1, 'tools/call', { name: 'deploy', arguments: {} }, true)));
      socket.send(JSON.stringify(body(2, 'tools/call', { name: 'status', arguments: {} }, true)));
      socket.send(JSON.stringify(body(3, 'completion/complete', completeTemplate, true)));
      await expect.poll(() => answers.length).toBe(3);
      expect(answers.find((answer) => answer.id === 3)).toMatchObject({
        error: { code: INSUFFICIENT_SCOPE, data: { requiredScopes: ['secrets:read'] } },
      });
      const refused = answers.find((answer) => answer.id === 1) as {
        error: { code: number; data: unknown };
      };
      expect(refused.error.code).toBe(INSUFFICIENT_SCOPE);
      expect(refused.error.data).toEqual({
        error: 'insufficient_scope',
        requiredScopes: ['deploy'],
      });
      expect(answers.find((answer) => answer.id === 2)).toHaveProperty('result');
      socket.close();
    } finally {
      await running.close();
    }
  });

  it('an anonymous connection (stdio has no token): -32003 in both eras', async () => {
    const endpoint = createEndpoint(scopedServer(), { modern: modernEra(), legacy: legacyEra() });
    const modern = new MemoryConnection(endpoint);
    const answer = await modern.request('tools/call', {
      name: 'deploy',
      arguments: {},
      _meta: META,
    });
    expect(answer).toMatchObject({
      error: { code: INSUFFICIENT_SCOPE, data: { requiredScopes: ['deploy'] } },
    });
    const legacy = new MemoryConnection(endpoint);
    await legacy.request('initialize', {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'scopes-test', version: '1.0.0' },
    });
    legacy.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    const read = await legacy.request('resources/read', { uri: 'secret://plan' });
    expect(read).toMatchObject({
      error: { code: INSUFFICIENT_SCOPE, data: { requiredScopes: ['secrets:read'] } },
    });
    for (const params of [completePrompt, completeTemplate]) {
      const refused = {
        error: { code: INSUFFICIENT_SCOPE, data: { requiredScopes: ['secrets:read'] } },
      };
      expect(await legacy.request('completion/complete', params)).toMatchObject(refused);
      expect(await modern.request('completion/complete', { ...params, _meta: META })).toMatchObject(
        refused,
      );
    }
  });
});
