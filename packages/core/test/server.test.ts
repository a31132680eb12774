import { runtimeOf } from '@rondo/core/internal';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  complete,
  error,
  structured,
  formElicitation,
  inputRequest,
  inputRequired,
  messages,
  message,
  contents,
  textContent,
  text,
  type JsonObject,
} from '@rondo/protocol';
import {
  createServer,
  ConfigurationError,
  type CompletionRequest,
  type Provider,
  type ServerChange,
} from '@rondo/core';
import { testContext } from './testContext.js';

const quiet = {
  log: () => undefined,
  requestState: { key: 'test-key-0123456789abcdef0123456789abcde' },
};

/** Adds a prompt `greet` with the argument `who`, for completion tests. */
function withGreeting<T extends ReturnType<typeof calculator>>(server: T): T {
  return server.prompt('greet', { arguments: [{ name: 'who' }] }, () => messages([]));
}

function calculator() {
  return createServer({ name: 'calc', version: '1.0.0', ...quiet })
    .tool(
      'add',
      { description: 'Adds', input: z.object({ a: z.number(), b: z.number() }) },
      ({ a, b }) => text(String(a + b)),
    )
    .tool(
      'echo',
      {
        description: 'Echoes',
        input: { type: 'object', properties: { word: { type: 'string' } }, required: ['word'] },
      },
      (args) => `echo ${String(args.word)}`,
    );
}

describe('RondoServer tools', () => {
  it('validates zod arguments and calls the handler', async () => {
    const server = calculator();
    await runtimeOf(server).ready();
    expect(await runtimeOf(server).callTool('add', { a: 2, b: 3 }, testContext())).toEqual(
      complete(text('5')),
    );
  });

  it('advertises zod input as JSON Schema', async () => {
    const server = calculator();
    await runtimeOf(server).ready();
    const add = runtimeOf(server).catalog.tool('add')!.definition;
    expect(add.inputSchema).toMatchObject({
      type: 'object',
      properties: { a: { type: 'number' } },
      required: ['a', 'b'],
    });
  });

  it('turns bad arguments into a tool error naming the field', async () => {
    const server = calculator();
    await runtimeOf(server).ready();
    const zodCase = await runtimeOf(server).callTool('add', { a: 'two', b: 3 }, testContext());
    expect(zodCase).toMatchObject({ kind: 'complete', result: { kind: 'error' } });
    expect(JSON.stringify(zodCase)).toContain('a');
    const ajvCase = await runtimeOf(server).callTool('echo', {}, testContext());
    expect(ajvCase).toMatchObject({
      kind: 'complete',
      result: { kind: 'error', text: expect.stringContaining('word') },
    });
  });

  it('treats missing arguments as {}', async () => {
    const server = createServer({ name: 's', version: '1', ...quiet }).tool(
      'noargs',
      {},
      () => 'ok',
    );
    await runtimeOf(server).ready();
    expect(await runtimeOf(server).callTool('noargs', undefined, testContext())).toEqual(
      complete(text('ok')),
    );
  });

  it('rejects an unknown tool with -32602', async () => {
    const server = calculator();
    await runtimeOf(server).ready();
    await expect(runtimeOf(server).callTool('nope', {}, testContext())).rejects.toMatchObject({
      code: -32602,
    });
  });

  it('turns a throwing handler into an isError result', async () => {
    const server = createServer({ name: 's', version: '1', ...quiet }).tool('boom', {}, () => {
      throw new Error('kaboom');
    });
    await runtimeOf(server).ready();
    expect(await runtimeOf(server).callTool('boom', {}, testContext())).toMatchObject({
      kind: 'complete',
      result: { kind: 'error', text: expect.stringContaining('kaboom') },
    });
  });

  it('passes round results through and wraps plain values in complete', async () => {
    const ask = inputRequired(
      [inputRequest('name', formElicitation('Name?', { type: 'object' }))],
      { step: 1 },
    );
    const server = createServer({ name: 's', version: '1', ...quiet }).tool('ask', {}, (_a, ctx) =>
      ctx.round === 1 ? ask : text('done'),
    );
    await runtimeOf(server).ready();
    expect(await runtimeOf(server).callTool('ask', {}, testContext())).toEqual(ask);
    expect(await runtimeOf(server).callTool('ask', {}, testContext({ round: 2 }))).toEqual(
      complete(text('done')),
    );
  });

  it('holds finished results to the outputSchema in every era', async () => {
    const output: JsonObject = {
      type: 'object',
      properties: { n: { type: 'integer' } },
      required: ['n'],
    };
    const server = createServer({ name: 's', version: '1', ...quiet })
      .tool('good', { output }, () => structured({ n: 1 }))
      .tool('wrong', { output }, () => structured({ n: 'one' }))
      .tool('plain', { output }, () => text('no structure'))
      .tool('failing', { output }, () => error('it broke'));
    await runtimeOf(server).ready();
    expect(await runtimeOf(server).callTool('good', {}, testContext())).toEqual(
      complete(structured({ n: 1 })),
    );
    expect(await runtimeOf(server).callTool('wrong', {}, testContext())).toMatchObject({
      result: { kind: 'error', text: expect.stringContaining('does not match its outputSchema') },
    });
    expect(
      await runtimeOf(server).callTool('plain', {}, testContext({ era: 'legacy' })),
    ).toMatchObject({
      result: { kind: 'error', text: expect.stringContaining('returned no structured content') },
    });
    expect(await runtimeOf(server).callTool('failing', {}, testContext())).toEqual(
      complete(error('it broke')),
    );
  });

  it('refuses a duplicate tool name at registration', () => {
    expect(() => calculator().tool('add', {}, () => 'again')).toThrow(ConfigurationError);
  });

  it('keeps registration order in the catalog', async () => {
    const server = calculator();
    await runtimeOf(server).ready();
    expect(runtimeOf(server).catalog.tools.map((t) => t.definition.name)).toEqual(['add', 'echo']);
  });
});

describe('RondoServer prompts and resources', () => {
  const server = createServer({ name: 's', version: '1', ...quiet })
    .prompt(
      'greet',
      { description: 'Greets', arguments: [{ name: 'who', required: true }] },
      (args) => messages([message('user', `Hello ${args.who}`)]),
    )
    .resource('test://static', { name: 'static', mimeType: 'text/plain' }, (uri) =>
      contents([textContent(uri, 'text/plain', 'static text')]),
    )
    .resourceTemplate('test://item/{id}', { name: 'item' }, (uri, vars) =>
      contents([textContent(uri, 'text/plain', `item ${String(vars.id)}`)]),
    );

  it('gets a prompt and checks required arguments', async () => {
    await runtimeOf(server).ready();
    expect(await runtimeOf(server).getPrompt('greet', { who: 'Ada' }, testContext())).toEqual(
      complete(messages([message('user', 'Hello Ada')])),
    );
    await expect(runtimeOf(server).getPrompt('greet', {}, testContext())).rejects.toMatchObject({
      code: -32602,
    });
  });

  it('reads concrete and templated resources, undefined when unknown', async () => {
    await runtimeOf(server).ready();
    expect(await runtimeOf(server).readResource('test://static', testContext())).toMatchObject({
      result: { contents: [{ text: 'static text' }] },
    });
    expect(await runtimeOf(server).readResource('test://item/7', testContext())).toMatchObject({
      result: { contents: [{ text: 'item 7' }] },
    });
    expect(await runtimeOf(server).readResource('test://missing', testContext())).toBeUndefined();
  });

  it('derives capabilities from what is registered', async () => {
    await runtimeOf(server).ready();
    expect(runtimeOf(server).capabilities()).toMatchObject({
      prompts: true,
      resources: true,
      subscribe: true,
    });
  });
});

describe('RondoServer changes and providers', () => {
  it('announces list changes and rebuilds the catalog', async () => {
    const server = calculator();
    await runtimeOf(server).ready();
    const changes: ServerChange[] = [];
    runtimeOf(server).onChange((c) => changes.push(c));
    server.tool('late', { description: 'Late' }, () => 'late');
    await new Promise((r) => setTimeout(r, 0));
    expect(changes).toContainEqual({ kind: 'tools' });
    expect(runtimeOf(server).catalog.tool('late')).toBeDefined();
    server.removeTool('late');
    await new Promise((r) => setTimeout(r, 0));
    expect(runtimeOf(server).catalog.tool('late')).toBeUndefined();
  });

  it('announces resource updates', async () => {
    const server = calculator();
    await runtimeOf(server).ready();
    const changes: ServerChange[] = [];
    runtimeOf(server).onChange((c) => changes.push(c));
    server.resourceUpdated('test://x');
    expect(changes).toEqual([{ kind: 'resource', uri: 'test://x' }]);
  });

  it('serves an external provider, validating its arguments with its JSON Schema', async () => {
    const calls: unknown[] = [];
    const provider: Provider = {
      name: 'external',
      tools: async () => [
        {
          name: 'shout',
          inputSchema: { type: 'object', properties: { s: { type: 'string' } }, required: ['s'] },
        },
      ],
      callTool: async (_name, args) => {
        calls.push(args);
        return text((args.s as string).toUpperCase());
      },
      cachePolicy: (method) =>
        method === 'tools/list' ? { ttlMs: 5000, cacheScope: 'public' } : undefined,
    };
    const server = calculator().provider(provider);
    await runtimeOf(server).ready();
    expect(await runtimeOf(server).callTool('shout', { s: 'hi' }, testContext())).toEqual(
      complete(text('HI')),
    );
    expect(await runtimeOf(server).callTool('shout', { s: 1 }, testContext())).toMatchObject({
      result: { kind: 'error' },
    });
    expect(calls).toHaveLength(1);
    expect(runtimeOf(server).cachePolicyFor('tools/list')).toEqual({
      ttlMs: 5000,
      cacheScope: 'public',
    });
    expect(runtimeOf(server).cachePolicyFor('prompts/list')).toEqual({
      ttlMs: 0,
      cacheScope: 'private',
    });
  });

  it('prefers a cache rule set on the server', async () => {
    const server = calculator().cachePolicy('resources/read', (uri) =>
      uri === 'a' ? { ttlMs: 1, cacheScope: 'public' } : undefined,
    );
    expect(runtimeOf(server).cachePolicyFor('resources/read', 'a')).toEqual({
      ttlMs: 1,
      cacheScope: 'public',
    });
    expect(runtimeOf(server).cachePolicyFor('resources/read', 'b').ttlMs).toBe(0);
  });

  it('completes registered arguments; a list cut to 100 says hasMore, with its total', async () => {
    const server = withGreeting(calculator()).completion({ prompt: 'greet' }, 'who', (value) =>
      Array.from({ length: 150 }, (_, i) => `${value}${i}`),
    );
    const answer = await runtimeOf(server).complete({
      ref: { type: 'ref/prompt', name: 'greet' },
      argument: { name: 'who', value: 'a' },
    });
    expect(answer.values).toHaveLength(100);
    expect(answer.values[0]).toBe('a0');
    expect(answer).toMatchObject({ total: 150, hasMore: true });
  });

  it('says hasMore when it cuts a list whose provider gave a total and hasMore: false', async () => {
    const server = withGreeting(calculator()).completion({ prompt: 'greet' }, 'who', () => ({
      values: Array.from({ length: 120 }, (_, i) => `v${i}`),
      total: 500,
      hasMore: false,
    }));
    const answer = await runtimeOf(server).complete({
      ref: { type: 'ref/prompt', name: 'greet' },
      argument: { name: 'who', value: '' },
    });
    expect(answer).toMatchObject({ total: 500, hasMore: true });
    expect(answer.values).toHaveLength(100);
  });

  it('refuses an unknown prompt, template or argument with -32602; an unregistered one is empty', async () => {
    const server = withGreeting(calculator())
      .resourceTemplate('test://item/{id}', { name: 'item' }, () => contents([]))
      .completion({ prompt: 'greet' }, 'who', () => ['x']);
    const ask = (ref: CompletionRequest['ref'], name: string) =>
      runtimeOf(server).complete({ ref, argument: { name, value: '' } });
    const invalid = { code: -32602 };
    await expect(ask({ type: 'ref/prompt', name: 'x' }, 'who')).rejects.toMatchObject({
      ...invalid,
      message: 'Unknown prompt: x',
    });
    await expect(ask({ type: 'ref/prompt', name: 'greet' }, 'nobody')).rejects.toMatchObject({
      ...invalid,
      message: 'Unknown argument "nobody" for prompt "greet"',
    });
    await expect(
      ask({ type: 'ref/resource', uri: 'test://nope/{id}' }, 'id'),
    ).rejects.toMatchObject({ ...invalid, message: 'Unknown resource template: test://nope/{id}' });
    await expect(ask({ type: 'ref/resource', uri: 'test://item/{id}' }, 'x')).rejects.toMatchObject(
      { ...invalid, message: 'Unknown argument "x" for resource template "test://item/{id}"' },
    );
    expect(await ask({ type: 'ref/resource', uri: 'test://item/{id}' }, 'id')).toEqual({
      values: [],
    });
  });

  it('advertises completions only when a completion is registered', async () => {
    const bare = withGreeting(calculator());
    await runtimeOf(bare).ready();
    expect(runtimeOf(bare).capabilities().completions).toBe(false);
    const completing = withGreeting(calculator()).completion({ prompt: 'greet' }, 'who', () => []);
    await runtimeOf(completing).ready();
    expect(runtimeOf(completing).capabilities().completions).toBe(true);
  });
});
