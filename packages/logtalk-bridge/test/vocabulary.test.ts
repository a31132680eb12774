import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createPrologProvider, PrologCallError, type PrologProvider } from '../src/index.js';
import { fixture, logSink, makeContext } from './helpers.js';
import { ADD_TOOL } from './fixtures/vocabTools.js';

let provider: PrologProvider;
const log = logSink();

beforeAll(async () => {
  provider = await createPrologProvider({
    files: [fixture('vocab.pl')],
    workers: 2,
    timeoutMs: 5000,
    onLog: log.onLog,
  });
});
afterAll(() => provider.close());

const call = (name: string, args: Record<string, unknown> = {}) =>
  provider.callTool!(name, args as never, makeContext());

describe('tool results', () => {
  it('converts text/1 and error/1 (a non-atom error is written)', async () => {
    expect(await call('text')).toEqual({ kind: 'text', text: 'plain text' });
    expect(await call('error')).toEqual({ kind: 'error', text: 'oops(1)' });
  });

  it('converts results/1 with every content item, annotations included', async () => {
    expect(await call('results')).toEqual({
      kind: 'results',
      items: [
        { kind: 'text', text: 'one' },
        { kind: 'error', text: 'two' },
        { kind: 'resource_link', uri: 'file:///a', name: 'a' },
        {
          kind: 'resource_link',
          uri: 'file:///b',
          name: 'b',
          description: 'The b',
          mimeType: 'text/plain',
        },
        { kind: 'text', text: 'noted', annotations: { audience: ['user'], priority: 0.5 } },
      ],
    });
  });

  it('converts image/2, audio/2 and embedded resources', async () => {
    expect(await call('media')).toEqual({
      kind: 'results',
      items: [
        { kind: 'image', data: 'aGVsbG8=', mimeType: 'image/png' },
        { kind: 'audio', data: 'aGVsbG8=', mimeType: 'audio/wav' },
        {
          kind: 'resource',
          contents: {
            kind: 'text_content',
            uri: 'file:///c',
            mimeType: 'text/plain',
            text: 'embedded',
          },
        },
        {
          kind: 'resource',
          contents: {
            kind: 'blob_content',
            uri: 'file:///d',
            mimeType: 'application/octet-stream',
            blob: 'AAEC',
          },
        },
      ],
    });
  });

  it('converts structured/1 and structured/2 with @true and @null', async () => {
    expect(await call('structured1')).toEqual({
      kind: 'structured',
      structured: { quotient: 5, ok: true, none: null },
    });
    expect(await call('structured2')).toEqual({
      kind: 'structured',
      structured: { result: 25 },
      items: [{ kind: 'text', text: 'summary' }],
    });
  });

  it("turns an exception into a tool error naming it, and a failure into Logtalk's text with the tool and predicate in the log (issue 39)", async () => {
    expect(await call('throws')).toEqual({ kind: 'error', text: 'my_exception(42)' });
    expect(await call('fails', { X: 'a' })).toEqual({
      kind: 'error',
      text: 'Tool predicate failed',
    });
    // The worker's standard error reaches the log on its own pipe, maybe after the answer.
    await vi.waitFor(() =>
      expect(log.lines).toContainEqual(
        expect.stringMatching(
          /stderr: rondo: tool fails failed: its predicate fails\/1 has no solution for these arguments$/,
        ),
      ),
    );
  });

  it('rejects a result term outside the vocabulary with a PrologCallError', async () => {
    await expect(call('bad')).rejects.toThrow(PrologCallError);
    await expect(call('bad')).rejects.toThrow(/invalid content: not_a_result\(x\)/);
  });
});

describe('auto-dispatch and schema inference', () => {
  it('infers input and output schemas from mode/2 and info/2, with titles and descriptions', () => {
    const add = provider.tools!() as { name: string }[];
    expect(add.find((t) => t.name === 'add')).toEqual(ADD_TOOL);
  });

  it('binds input arguments by name and returns outputs as structured content', async () => {
    expect(await call('add', { A: 2, B: 40 })).toEqual({
      kind: 'structured',
      structured: { Sum: 42 },
      items: [{ kind: 'text', text: 'Sum: 42' }],
    });
    expect(await call('greet', { Name: 'wörld' })).toMatchObject({
      structured: { Greeting: 'Hello, wörld!' },
    });
    expect(await call('flags', { On: true })).toMatchObject({ structured: { Items: [1, 2, 3] } });
  });

  it('advertises no inferred outputSchema for a tool answered by tool_call/3', () => {
    const tools = provider.tools!() as {
      name: string;
      outputSchema?: unknown;
      inputSchema: unknown;
    }[];
    expect(tools.find((t) => t.name === 'text')?.outputSchema).toBeUndefined();
    expect(tools.find((t) => t.name === 'echo')?.outputSchema).toBeUndefined();
    expect(tools.find((t) => t.name === 'steps')?.outputSchema).toBeUndefined();
  });

  it('lets input_schema/2 and output_schema/2 override the inferred schemas', () => {
    const tools = provider.tools!() as {
      name: string;
      outputSchema?: unknown;
      inputSchema: unknown;
    }[];
    expect(tools.find((t) => t.name === 'custom_schema')).toMatchObject({
      inputSchema: {
        type: 'object',
        properties: { n: { type: 'integer', minimum: 0 } },
        required: ['n'],
      },
      outputSchema: {
        type: 'object',
        properties: { doubled: { type: 'integer' } },
        required: ['doubled'],
      },
    });
  });
});

describe('prompts, resources, completions and cache policies', () => {
  it('lists prompts with titles and arguments', () => {
    expect(provider.prompts!()).toEqual([
      {
        name: 'hello',
        description: 'Says hello',
        arguments: [{ name: 'who', description: 'Who to greet', required: true }],
      },
      { name: 'titled', title: 'Titled', description: 'Has a title', arguments: [] },
      { name: 'broken', description: 'Fails', arguments: [] },
      { name: 'confirm', description: 'Asks first', arguments: [] },
    ]);
  });

  it('converts messages/1 (a bare atom content is text) and messages/2', async () => {
    expect(await provider.getPrompt!('hello', { who: 'Ann' }, makeContext())).toEqual({
      kind: 'messages',
      messages: [
        { kind: 'message', role: 'user', content: { kind: 'text', text: 'Hello Ann' } },
        { kind: 'message', role: 'assistant', content: { kind: 'text', text: 'Sure.' } },
      ],
    });
    expect(await provider.getPrompt!('titled', {}, makeContext())).toMatchObject({
      description: 'A description',
    });
  });

  it('fails a prompt whose hook fails with a PrologCallError', async () => {
    await expect(provider.getPrompt!('broken', {}, makeContext())).rejects.toThrow(
      'Prompt execution failed',
    );
  });

  it('lists resources and templates and converts text_content/3,4 and blob_content/3', async () => {
    expect(provider.resources!()).toContainEqual({
      uri: 'mem://b',
      name: 'b',
      title: 'B title',
      description: 'Resource B',
      mimeType: 'application/octet-stream',
    });
    expect(provider.resourceTemplates!()).toEqual([
      {
        uriTemplate: 'mem://items/{id}',
        name: 'item',
        description: 'An item',
        mimeType: 'text/plain',
      },
    ]);
    expect(await provider.readResource!('mem://a', makeContext())).toEqual({
      kind: 'contents',
      contents: [
        { kind: 'text_content', uri: 'mem://a', mimeType: 'text/plain', text: 'alpha' },
        {
          kind: 'text_content',
          uri: 'mem://a',
          mimeType: 'text/plain',
          text: 'again',
          meta: { tag: 'x' },
        },
      ],
    });
    expect(await provider.readResource!('mem://b', makeContext())).toMatchObject({
      contents: [{ kind: 'blob_content', blob: 'AAEC' }],
    });
    expect(await provider.readResource!('mem://items/7', makeContext())).toMatchObject({
      contents: [{ text: '7' }],
    });
  });

  it('answers undefined for an unknown URI and fails a listed resource whose hook fails', async () => {
    expect(await provider.readResource!('other://x', makeContext())).toBeUndefined();
    await expect(provider.readResource!('mem://missing', makeContext())).rejects.toThrow(
      'Resource read failed',
    );
  });

  it('completes with completion/4 and reads cache_policy/4 once', async () => {
    expect(
      await provider.complete!({
        ref: { type: 'ref/prompt', name: 'hello' },
        argument: { name: 'who', value: 'al' },
      }),
    ).toEqual({
      values: ['alice', 'albert'],
      total: 3,
      hasMore: false,
    });
    expect(provider.cachePolicy!('resources/read', 'mem://a')).toEqual({
      ttlMs: 2000,
      cacheScope: 'public',
    });
    expect(provider.cachePolicy!('resources/read', 'mem://b')).toBeUndefined();
    expect(provider.cachePolicy!('tools/list', undefined)).toEqual({
      ttlMs: 1000,
      cacheScope: 'private',
    });
    expect(provider.cachePolicy!('server/discover', undefined)).toEqual({
      ttlMs: 5000,
      cacheScope: 'public',
    });
  });

  it('reports the flavour, the provider name and its capabilities/1', () => {
    expect(provider.flavour).toBe('plain');
    expect(provider.name).toBe('prolog:vocab');
    expect(provider.declaredCapabilities).toEqual(['prompts', 'resources', 'completions']);
  });
});
