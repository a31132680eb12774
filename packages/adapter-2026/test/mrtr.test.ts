import { afterEach, describe, expect, it } from 'vitest';
import { ModernClient, type WireJson, meta } from './support/modernClient.js';
import { buildTestServer } from './support/testServer.js';
import type { ServerOptions } from '@rondo/core';
import { formElicitation, inputRequest, inputRequired, text } from '@rondo/protocol';

const clients: ModernClient[] = [];
function client(options?: Partial<ServerOptions>): ModernClient {
  const created = new ModernClient(buildTestServer(options));
  clients.push(created);
  return created;
}
afterEach(() => {
  for (const used of clients.splice(0)) used.expectValidWire();
});

const accept = (content: object) => ({ action: 'accept', content });
const INVALID_STATE = 'Invalid or expired requestState';

function textOf(result: Record<string, WireJson>): string {
  return (
    result.content?.[0]?.text ?? result.messages?.[0]?.content?.text ?? result.contents?.[0]?.text
  );
}

describe('multi round-trip requests', () => {
  it('completes a retry of a tool whose JSON Schema fills defaults (regression, issue 9)', async () => {
    const server = buildTestServer().tool(
      'sized',
      {
        description: 'Asks, then reports its size',
        input: { type: 'object', properties: { size: { type: 'integer', default: 3 } } },
      },
      (args, ctx) =>
        ctx.inputResponses.ok
          ? text(`size ${String(args.size)}`)
          : inputRequired([
              inputRequest('ok', formElicitation('Go?', { type: 'object', properties: {} })),
            ]),
    );
    const c = new ModernClient(server);
    clients.push(c);
    const first = await c.result('tools/call', { name: 'sized', arguments: {} });
    expect(first.resultType).toBe('input_required');
    const second = await c.result('tools/call', {
      name: 'sized',
      arguments: {},
      inputResponses: { ok: accept({}) },
      requestState: first.requestState,
    });
    expect(textOf(second)).toBe('size 3');
  });

  it('answers input_required with a sealed state, then completes with the answer', async () => {
    const c = client();
    const first = await c.result('tools/call', { name: 'greet', arguments: {} });
    expect(first.resultType).toBe('input_required');
    expect(first.inputRequests.user_name.method).toBe('elicitation/create');
    expect(first.inputRequests.user_name.params).toMatchObject({
      mode: 'form',
      message: 'What is your name?',
    });
    expect(typeof first.requestState).toBe('string');
    expect(first.ttlMs).toBeUndefined();
    const second = await c.result('tools/call', {
      name: 'greet',
      arguments: {},
      inputResponses: { user_name: accept({ name: 'Alice' }) },
      requestState: first.requestState,
    });
    expect(second.resultType).toBe('complete');
    expect(textOf(second)).toBe('Hello, Alice!');
  });

  it('takes three rounds, each with a new requestState', async () => {
    const c = client();
    const r1 = await c.result('tools/call', { name: 'three_rounds' });
    expect(Object.keys(r1.inputRequests)).toEqual(['step1']);
    const r2 = await c.result('tools/call', {
      name: 'three_rounds',
      inputResponses: { step1: accept({ name: 'Alice' }) },
      requestState: r1.requestState,
    });
    expect(r2.resultType).toBe('input_required');
    expect(Object.keys(r2.inputRequests)).toEqual(['step2']);
    expect(r2.requestState).not.toBe(r1.requestState);
    const r3 = await c.result('tools/call', {
      name: 'three_rounds',
      inputResponses: { step2: accept({ color: 'blue' }) },
      requestState: r2.requestState,
    });
    expect(textOf(r3)).toBe('Alice likes blue (round 3)');
  });

  it('asks for several inputs in one round', async () => {
    const c = client();
    const r1 = await c.result('tools/call', { name: 'multiple_inputs' });
    const methods = Object.fromEntries(
      Object.entries(r1.inputRequests).map(([k, v]: [string, WireJson]) => [k, v.method]),
    );
    expect(methods).toEqual({
      user_name: 'elicitation/create',
      greeting: 'sampling/createMessage',
      client_roots: 'roots/list',
    });
    expect(r1.inputRequests.greeting.params).toMatchObject({ maxTokens: 50 });
    const r2 = await c.result('tools/call', {
      name: 'multiple_inputs',
      inputResponses: {
        user_name: accept({ name: 'Alice' }),
        greeting: {
          role: 'assistant',
          content: { type: 'text', text: 'Hello there!' },
          model: 'm',
          stopReason: 'endTurn',
        },
        client_roots: { roots: [{ uri: 'file:///test/root', name: 'Test Root' }] },
      },
      requestState: r1.requestState,
    });
    expect(textOf(r2)).toBe('Hello, Alice! {"type":"text","text":"Hello there!"} roots=1');
  });

  it('carries a round that has a state and no input requests', async () => {
    const c = client();
    const r1 = await c.result('tools/call', { name: 'state_only' });
    expect(r1.resultType).toBe('input_required');
    expect(r1.inputRequests).toBeUndefined();
    const r2 = await c.result('tools/call', { name: 'state_only', requestState: r1.requestState });
    expect(textOf(r2)).toBe('state-ok {"waited":1}');
  });

  it('rejects a tampered requestState with -32602', async () => {
    const c = client();
    const r1 = await c.result('tools/call', { name: 'greet' });
    const error = await c.error('tools/call', {
      name: 'greet',
      inputResponses: { user_name: accept({ name: 'Alice' }) },
      requestState: `${r1.requestState}-TAMPERED`,
    });
    expect(error).toMatchObject({
      code: -32602,
      message: expect.stringContaining(
        `${INVALID_STATE}: it was not sealed with this server's keys`,
      ),
    });
  });

  it('rejects an expired requestState with -32602', async () => {
    let now = 1_000_000;
    const c = client({ requestState: { key: 'k'.repeat(32), ttlMs: 60_000, now: () => now } });
    const r1 = await c.result('tools/call', { name: 'greet' });
    now += 60_001;
    const error = await c.error('tools/call', {
      name: 'greet',
      inputResponses: { user_name: accept({ name: 'Alice' }) },
      requestState: r1.requestState,
    });
    expect(error).toMatchObject({ code: -32602, message: INVALID_STATE });
  });

  it('rejects a requestState replayed with other arguments with -32602', async () => {
    const c = client();
    const r1 = await c.result('tools/call', { name: 'echo_args', arguments: { x: 1 } });
    const answers = { confirm: accept({ ok: true }) };
    const replay = await c.error('tools/call', {
      name: 'echo_args',
      arguments: { x: 2 },
      inputResponses: answers,
      requestState: r1.requestState,
    });
    expect(replay).toMatchObject({ code: -32602, message: INVALID_STATE });
    const otherTool = await c.error('tools/call', {
      name: 'greet',
      inputResponses: answers,
      requestState: r1.requestState,
    });
    expect(otherTool.code).toBe(-32602);
    const honest = await c.result('tools/call', {
      name: 'echo_args',
      arguments: { x: 1 },
      inputResponses: answers,
      requestState: r1.requestState,
    });
    expect(textOf(honest)).toBe('x=1');
  });

  it('re-issues a missing response in a new input_required result and keeps the answers given', async () => {
    const c = client();
    const r1 = await c.result('tools/call', { name: 'multiple_inputs' });
    const r2 = await c.result('tools/call', {
      name: 'multiple_inputs',
      inputResponses: { user_name: accept({ name: 'Bob' }), unknown_key: accept({}) },
      requestState: r1.requestState,
    });
    expect(r2.resultType).toBe('input_required');
    expect(Object.keys(r2.inputRequests).sort()).toEqual(['client_roots', 'greeting']);
    const r3 = await c.result('tools/call', {
      name: 'multiple_inputs',
      inputResponses: {
        greeting: { role: 'assistant', content: { type: 'text', text: 'Hi' }, model: 'm' },
        client_roots: { roots: [] },
      },
      requestState: r2.requestState,
    });
    expect(textOf(r3)).toBe('Hello, Bob! {"type":"text","text":"Hi"} roots=0');
  });

  it('asks again when a first call carries only answers to other keys', async () => {
    const c = client();
    const result = await c.result('tools/call', {
      name: 'greet',
      inputResponses: { wrong_key: accept({ data: 'wrong' }) },
    });
    expect(result.resultType).toBe('input_required');
    expect(Object.keys(result.inputRequests)).toEqual(['user_name']);
  });

  it('uses answers given on a first call without a state and ignores extra keys', async () => {
    const c = client();
    const result = await c.result('tools/call', {
      name: 'greet',
      inputResponses: {
        user_name: accept({ name: 'Alice' }),
        unknown_extra_key: accept({ foo: 'bar' }),
        another_unexpected: accept({ baz: 123 }),
      },
    });
    expect(textOf(result)).toBe('Hello, Alice!');
  });

  it('rejects malformed responses with -32602', async () => {
    const c = client();
    expect(
      (await c.error('tools/call', { name: 'greet', inputResponses: { user_name: 12345 } })).code,
    ).toBe(-32602);
    expect((await c.error('tools/call', { name: 'greet', inputResponses: null })).code).toBe(
      -32602,
    );
    expect((await c.error('tools/call', { name: 'greet', inputResponses: [] })).code).toBe(-32602);
    const r1 = await c.result('tools/call', { name: 'greet' });
    const retry = (answer: unknown) =>
      c.error('tools/call', {
        name: 'greet',
        inputResponses: { user_name: answer },
        requestState: r1.requestState,
      });
    const wrongType = await retry(accept({ name: 5 }));
    expect(wrongType.code).toBe(-32602);
    expect(wrongType.message).toContain('requested schema');
    expect((await retry(accept({}))).code).toBe(-32602);
    expect((await retry({ action: 'maybe' })).code).toBe(-32602);
    expect((await retry({ roots: [] })).code).toBe(-32602);
  });

  it('rejects an input request the client did not declare with -32021 and requiredCapabilities', async () => {
    const c = client();
    const noSampling = await c.error('tools/call', { name: 'needs_sampling' }, { meta: meta({}) });
    expect(noSampling).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { sampling: {} } },
    });
    const noTools = await c.error(
      'tools/call',
      { name: 'sampling_with_tools' },
      { meta: meta({ sampling: {} }) },
    );
    expect(noTools.data.requiredCapabilities).toEqual({ sampling: { tools: {} } });
    const noUrl = await c.error(
      'tools/call',
      { name: 'url_login' },
      { meta: meta({ elicitation: {} }) },
    );
    expect(noUrl.data.requiredCapabilities).toEqual({ elicitation: { url: {} } });
    const urlOnly = await c.error(
      'tools/call',
      { name: 'greet' },
      { meta: meta({ elicitation: { url: {} } }) },
    );
    expect(urlOnly.data.requiredCapabilities).toEqual({ elicitation: { form: {} } });
    const noRoots = await c.error(
      'tools/call',
      { name: 'list_roots' },
      { meta: meta({ sampling: {} }) },
    );
    expect(noRoots.data.requiredCapabilities).toEqual({ roots: {} });
    const formByDefault = await c.result(
      'tools/call',
      { name: 'greet' },
      { meta: meta({ elicitation: {} }) },
    );
    expect(formByDefault.resultType).toBe('input_required');
    const withTools = await c.result(
      'tools/call',
      { name: 'sampling_with_tools' },
      { meta: meta({ sampling: { tools: {} } }) },
    );
    expect(withTools.inputRequests.q.params.tools).toHaveLength(1);
  });

  it('lets decline and cancel reach the hook', async () => {
    const c = client();
    for (const [action, expected] of [
      ['decline', 'The user declined.'],
      ['cancel', 'The user cancelled.'],
    ] as const) {
      const r1 = await c.result('tools/call', { name: 'greet' });
      const r2 = await c.result('tools/call', {
        name: 'greet',
        inputResponses: { user_name: { action } },
        requestState: r1.requestState,
      });
      expect(textOf(r2)).toBe(expected);
    }
  });

  it('round-trips sampling and roots requests', async () => {
    const c = client();
    const s1 = await c.result('tools/call', { name: 'needs_sampling' });
    expect(s1.inputRequests.capital_question).toMatchObject({
      method: 'sampling/createMessage',
      params: {
        maxTokens: 100,
        messages: [
          { role: 'user', content: { type: 'text', text: 'What is the capital of France?' } },
        ],
      },
    });
    const s2 = await c.result('tools/call', {
      name: 'needs_sampling',
      inputResponses: {
        capital_question: {
          role: 'assistant',
          content: { type: 'text', text: 'Paris.' },
          model: 'test-model',
          stopReason: 'endTurn',
        },
      },
      requestState: s1.requestState,
    });
    expect(textOf(s2)).toBe('Model said {"type":"text","text":"Paris."}');
    const r1 = await c.result('tools/call', { name: 'list_roots' });
    expect(r1.inputRequests.client_roots).toEqual({ method: 'roots/list', params: {} });
    const r2 = await c.result('tools/call', {
      name: 'list_roots',
      inputResponses: {
        client_roots: { roots: [{ uri: 'file:///test/root', name: 'Test Root' }] },
      },
      requestState: r1.requestState,
    });
    expect(textOf(r2)).toBe('Found 1 root(s): file:///test/root');
  });

  it('sends URL elicitations without the removed elicitationId', async () => {
    const c = client();
    const urlClient = { meta: meta({ elicitation: { url: {} } }) };
    const r1 = await c.result('tools/call', { name: 'url_login' }, urlClient);
    expect(r1.inputRequests.login).toEqual({
      method: 'elicitation/create',
      params: { mode: 'url', message: 'Log in please', url: 'https://example.com/login' },
    });
    const r2 = await c.result(
      'tools/call',
      {
        name: 'url_login',
        inputResponses: { login: { action: 'accept' } },
        requestState: r1.requestState,
      },
      urlClient,
    );
    expect(textOf(r2)).toBe('login accept');
  });

  it('takes rounds in prompts/get', async () => {
    const c = client();
    const r1 = await c.result('prompts/get', { name: 'ask_context' });
    expect(r1.resultType).toBe('input_required');
    expect(r1.inputRequests.user_context.params.message).toBe(
      'What context should the prompt use?',
    );
    const r2 = await c.result('prompts/get', {
      name: 'ask_context',
      inputResponses: { user_context: accept({ context: 'test context' }) },
      requestState: r1.requestState,
    });
    expect(r2.resultType).toBe('complete');
    expect(textOf(r2)).toBe('Context: test context');
  });

  it('takes rounds in resources/read, and a retry result is not cacheable', async () => {
    const c = client();
    const r1 = await c.result('resources/read', { uri: 'test://guarded' });
    expect(r1.resultType).toBe('input_required');
    expect(r1.ttlMs).toBeUndefined();
    const r2 = await c.result('resources/read', {
      uri: 'test://guarded',
      inputResponses: { confirm: accept({ ok: true }) },
      requestState: r1.requestState,
    });
    expect(r2).toMatchObject({ resultType: 'complete', ttlMs: 0, cacheScope: 'private' });
    expect(textOf(r2)).toBe('secret');
    const stateForOtherUri = await c.error('resources/read', {
      uri: 'test://static',
      inputResponses: { confirm: accept({ ok: true }) },
      requestState: r1.requestState,
    });
    expect(stateForOtherUri.code).toBe(-32602);
  });

  it('fails a request that does not complete within the round limit', async () => {
    const c = client({ roundLimit: 3 });
    const r1 = await c.result('tools/call', { name: 'endless' });
    const r2 = await c.result('tools/call', { name: 'endless', requestState: r1.requestState });
    expect(r2.resultType).toBe('input_required');
    const error = await c.error('tools/call', { name: 'endless', requestState: r2.requestState });
    expect(error.code).toBe(-32603);
    expect(error.message).toContain('round limit (3 rounds)');
  });

  it('refuses server-to-client requests from a handler and names inputRequired instead', async () => {
    const c = client();
    const result = await c.result('tools/call', { name: 'server_request' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('inputRequired');
  });
});
