import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';
import { bridgeFixture } from './support/paths.js';
import { hostProlog, type HostedProlog } from './support/prologHost.js';
import type { WireClient } from './support/wireClient.js';
import { ADD_TOOL } from '../../packages/logtalk-bridge/test/fixtures/vocabTools.js';

// Issue 7, done-when 2: every vocabulary form of a Prolog provider reaches the wire of both eras
// (through the endpoint, as rondo-logtalk composes it), and every message validates against the
// schema of its revision.

let host: HostedProlog;
beforeAll(async () => {
  host = await hostProlog([bridgeFixture('vocab.pl')]);
});
afterEach(() => host.checkClients());
afterAll(() => host.close());

const eras = [
  ['modern (2026-07-28)', () => host.modern()],
  ['legacy (2025-11-25)', () => host.legacy('2025-11-25')],
  ['legacy (2025-06-18)', () => host.legacy('2025-06-18')],
] as const;

const call = (client: WireClient, name: string, args: Record<string, unknown> = {}) =>
  client.call('tools/call', { name, arguments: args });

/** A result without the members only the modern era adds. */
function eraNeutral(result: Record<string, unknown>): Record<string, unknown> {
  const { resultType: _type, _meta: _meta, ttlMs: _ttl, cacheScope: _scope, ...rest } = result;
  return rest;
}

describe.each(eras)(
  'a Prolog provider on the %s wire',
  { timeout: scaled(30_000) },
  (_era, open) => {
    it('lists tools with titles, descriptions and inferred or overridden schemas', async () => {
      const client = await open();
      const { tools } = (await client.call('tools/list')) as { tools: Record<string, unknown>[] };
      const byName = new Map(tools.map((tool) => [tool.name, tool]));
      expect(byName.get('add')).toEqual(ADD_TOOL);
      expect(byName.get('custom_schema')).toMatchObject({
        inputSchema: { properties: { n: { type: 'integer', minimum: 0 } }, required: ['n'] },
        outputSchema: { properties: { doubled: { type: 'integer' } } },
      });
      // A tool answered by tool_call/3 promises no outputSchema its results might break.
      expect(byName.get('text')).not.toHaveProperty('outputSchema');
    });

    it('auto-dispatches by mode/2 and info/2: structured output plus a text rendering', async () => {
      const client = await open();
      expect(eraNeutral(await call(client, 'add', { A: 2, B: 40 }))).toEqual({
        content: [{ type: 'text', text: 'Sum: 42' }],
        structuredContent: { Sum: 42 },
      });
      expect(eraNeutral(await call(client, 'flags', { On: true }))).toMatchObject({
        structuredContent: { Items: [1, 2, 3] },
      });
      expect(eraNeutral(await call(client, 'fails', { X: 'x' }))).toEqual({
        content: [{ type: 'text', text: 'Tool predicate failed' }],
        isError: true,
      });
    });

    it('carries text/1, error/1, results/1 with links and annotations, and structured/1,2', async () => {
      const client = await open();
      expect(eraNeutral(await call(client, 'text'))).toEqual({
        content: [{ type: 'text', text: 'plain text' }],
      });
      expect(eraNeutral(await call(client, 'error'))).toEqual({
        content: [{ type: 'text', text: 'oops(1)' }],
        isError: true,
      });
      expect(eraNeutral(await call(client, 'results')).content).toEqual([
        { type: 'text', text: 'one' },
        { type: 'text', text: 'two' },
        { type: 'resource_link', uri: 'file:///a', name: 'a' },
        {
          type: 'resource_link',
          uri: 'file:///b',
          name: 'b',
          description: 'The b',
          mimeType: 'text/plain',
        },
        { type: 'text', text: 'noted', annotations: { audience: ['user'], priority: 0.5 } },
      ]);
      const one = eraNeutral(await call(client, 'structured1'));
      expect(one.structuredContent).toEqual({ quotient: 5.0, ok: true, none: null });
      expect(JSON.parse((one.content as { text: string }[])[0]!.text)).toEqual(
        one.structuredContent,
      );
      expect(eraNeutral(await call(client, 'structured2'))).toEqual({
        content: [{ type: 'text', text: 'summary' }],
        structuredContent: { result: 25 },
      });
    });

    it('carries images, audio and embedded text and blob resources', async () => {
      const client = await open();
      expect(eraNeutral(await call(client, 'media')).content).toEqual([
        { type: 'image', data: 'aGVsbG8=', mimeType: 'image/png' },
        { type: 'audio', data: 'aGVsbG8=', mimeType: 'audio/wav' },
        {
          type: 'resource',
          resource: { uri: 'file:///c', mimeType: 'text/plain', text: 'embedded' },
        },
        {
          type: 'resource',
          resource: { uri: 'file:///d', mimeType: 'application/octet-stream', blob: 'AAEC' },
        },
      ]);
    });

    it('turns an exception, an unknown result term and bad arguments into tool errors', async () => {
      const client = await open();
      const thrown = eraNeutral(await call(client, 'throws'));
      expect(thrown).toMatchObject({ isError: true, content: [{ text: 'my_exception(42)' }] });
      const bad = eraNeutral(await call(client, 'bad'));
      expect(bad.isError).toBe(true);
      expect(JSON.stringify(bad.content)).toMatch(/not_a_result/);
      const invalid = eraNeutral(await call(client, 'custom_schema', { n: -1 }));
      expect(invalid.isError).toBe(true);
    });

    it('serves prompts: arguments, descriptions, a failing prompt as an error response', async () => {
      const client = await open();
      const { prompts } = (await client.call('prompts/list')) as { prompts: { name: string }[] };
      expect(prompts).toContainEqual({
        name: 'hello',
        description: 'Says hello',
        arguments: [{ name: 'who', description: 'Who to greet', required: true }],
      });
      expect(prompts).toContainEqual({
        name: 'titled',
        title: 'Titled',
        description: 'Has a title',
        arguments: [],
      });
      expect(
        eraNeutral(await client.call('prompts/get', { name: 'hello', arguments: { who: 'Ann' } })),
      ).toEqual({
        messages: [
          { role: 'user', content: { type: 'text', text: 'Hello Ann' } },
          { role: 'assistant', content: { type: 'text', text: 'Sure.' } },
        ],
      });
      expect(
        eraNeutral(await client.call('prompts/get', { name: 'titled', arguments: {} })),
      ).toMatchObject({ description: 'A description' });
      const broken = await client.request('prompts/get', { name: 'broken', arguments: {} });
      expect(broken.error?.code).toBe(-32603);
    });

    it('serves resources, templates and reads (text with _meta, blob, by template)', async () => {
      const client = await open();
      const { resources } = (await client.call('resources/list')) as { resources: unknown[] };
      expect(resources).toContainEqual({
        uri: 'mem://b',
        name: 'b',
        title: 'B title',
        description: 'Resource B',
        mimeType: 'application/octet-stream',
      });
      expect(eraNeutral(await client.call('resources/templates/list'))).toEqual({
        resourceTemplates: [
          {
            uriTemplate: 'mem://items/{id}',
            name: 'item',
            description: 'An item',
            mimeType: 'text/plain',
          },
        ],
      });
      expect(eraNeutral(await client.call('resources/read', { uri: 'mem://a' }))).toEqual({
        contents: [
          { uri: 'mem://a', mimeType: 'text/plain', text: 'alpha' },
          { uri: 'mem://a', mimeType: 'text/plain', text: 'again', _meta: { tag: 'x' } },
        ],
      });
      expect(eraNeutral(await client.call('resources/read', { uri: 'mem://b' }))).toEqual({
        contents: [{ uri: 'mem://b', mimeType: 'application/octet-stream', blob: 'AAEC' }],
      });
      expect(eraNeutral(await client.call('resources/read', { uri: 'mem://items/7' }))).toEqual({
        contents: [{ uri: 'mem://items/7', mimeType: 'text/plain', text: '7' }],
      });
      const missing = await client.request('resources/read', { uri: 'other://nothing' });
      expect(missing.error?.code).toBe(client.modern ? -32602 : -32002);
    });

    it('completes prompt arguments with completion/4 (values, total, hasMore)', async () => {
      const client = await open();
      const result = await client.call('completion/complete', {
        ref: { type: 'ref/prompt', name: 'hello' },
        argument: { name: 'who', value: 'al' },
      });
      expect(result.completion).toEqual({ values: ['alice', 'albert'], total: 3, hasMore: false });
    });
  },
);

describe('era-specific forms of a Prolog provider', { timeout: scaled(30_000) }, () => {
  it('adds cache_policy/4 hints to modern list, read and discover results only', async () => {
    const modern = host.modern();
    expect(await modern.call('tools/list')).toMatchObject({ ttlMs: 1000, cacheScope: 'private' });
    expect(await modern.call('server/discover')).toMatchObject({
      ttlMs: 5000,
      cacheScope: 'public',
    });
    expect(await modern.call('resources/read', { uri: 'mem://a' })).toMatchObject({
      ttlMs: 2000,
      cacheScope: 'public',
    });
    const legacy = await host.legacy();
    expect(await legacy.call('tools/list')).not.toHaveProperty('ttlMs');
  });

  it('answers a modern round hook with input_required, its state carried back as the same term', async () => {
    const client = host.modern({ elicitation: { form: {}, url: {} } });
    const first = client.send('tools/call', {
      name: 'steps',
      arguments: {},
      _meta: { progressToken: 'p1' },
    });
    const r1 = (await first.ended)!;
    expect(first.sent).toContainEqual(
      expect.objectContaining({
        method: 'notifications/progress',
        params: expect.objectContaining({ progressToken: 'p1', progress: 1, total: 3 }),
      }),
    );
    const one = (r1 as { result: Record<string, unknown> }).result;
    expect(one).toMatchObject({
      resultType: 'input_required',
      inputRequests: { q1: { method: 'elicitation/create' } },
    });
    const two = await client.call('tools/call', {
      name: 'steps',
      arguments: {},
      requestState: one.requestState,
      inputResponses: { q1: { action: 'accept', content: {} } },
    });
    expect(two).toMatchObject({
      resultType: 'input_required',
      inputRequests: { q2: { method: 'elicitation/create', params: { mode: 'url' } } },
    });
    const three = await client.call('tools/call', {
      name: 'steps',
      arguments: {},
      requestState: two.requestState,
      inputResponses: { q2: { action: 'decline' } },
    });
    expect(three).toMatchObject({
      resultType: 'complete',
      content: [{ type: 'text', text: 'finished with decline' }],
    });
  });

  it('runs the same round hook for a legacy client by asking it mid-call', async () => {
    const client = await host.legacy('2025-11-25', { elicitation: { form: {} } });
    const record = client.send('prompts/get', { name: 'confirm', arguments: {} });
    const ask = await client.serverRequest(record, 'elicitation/create');
    expect(ask.params).toMatchObject({ message: 'Confirm?' });
    client.answer(ask, { action: 'accept', content: {} });
    expect(await record.ended).toMatchObject({
      result: { messages: [{ role: 'user', content: { type: 'text', text: 'confirmed' } }] },
    });
  });

  it('elicits through tool_call/4 on the legacy wire while the Prolog call waits', async () => {
    // elicit.pl lists `elicitation` in capabilities/1, which tool_call/4 needs.
    const asking = await hostProlog([bridgeFixture('vocab.pl'), bridgeFixture('elicit.pl')], {
      object: 'elicit',
      workers: 1,
    });
    const client = await asking.legacy('2025-11-25', { elicitation: {} });
    const record = client.send('tools/call', { name: 'ask', arguments: {} });
    const first = await client.serverRequest(record, 'elicitation/create');
    expect(first.params).toMatchObject({
      message: 'Your name?',
      requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
    });
    client.answer(first, { action: 'accept', content: { name: 'Zoë' } });
    const second = await client.serverRequest(record, 'elicitation/create', 1);
    client.answer(second, { action: 'decline' });
    expect(await record.ended).toMatchObject({
      result: { content: [{ type: 'text', text: "accept({name-'Zoë'}) / decline" }] },
    });
    const modern = asking.modern({ elicitation: {} });
    expect(await modern.call('tools/call', { name: 'ask', arguments: {} })).toMatchObject({
      content: [{ type: 'text', text: 'no elicitation here' }],
    });
    asking.checkClients();
    await asking.close();
  });
});
