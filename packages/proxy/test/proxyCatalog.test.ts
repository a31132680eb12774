import { createServer } from '@rondo/core';
import {
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
import { describe, expect, it, vi } from 'vitest';
import { namespaced } from '../src/index.js';
import { clientOf, closeAfterTest, endpointOf, gateway, memoryUpstream } from './support.js';

/** A server of both eras whose tools say which era reached them. */
function bothEras() {
  const server = createServer({ name: 'both', version: '1.0.0' })
    .tool('era', {}, (_args, ctx) => text(ctx.era))
    .tool('hidden', {}, () => text('hidden'))
    .tool('old_name', {}, () => text('renamed'))
    .tool('caps', {}, (_args, ctx) => text(Object.keys(ctx.clientCapabilities).sort().join(',')))
    .tool('keyed', {}, (_args, ctx) => {
      const answer = ctx.inputResponses.user_name;
      if (answer?.kind !== 'accept') {
        const form = { type: 'object', properties: { name: { type: 'string' } } };
        return inputRequired([inputRequest('user_name', formElicitation('Name?', form))]);
      }
      return text(`got ${answer.content.name as string}`);
    })
    .prompt('hello', { arguments: [{ name: 'who', required: true }] as const }, (args) =>
      messages([message('user', `Hello ${args.who}`)]),
    )
    .resource('memo://one', { name: 'one' }, (uri) =>
      contents([textContent(uri, 'text/plain', 'first')]),
    );
  return endpointOf(server, 'both');
}

describe('the proxy catalog and calls', () => {
  it('names tools by namespace, include, exclude and rename, and reaches only those', async () => {
    const { endpoint } = gateway(memoryUpstream(bothEras()), {
      namespace: 'b',
      exclude: ['hidden', 'ca*'],
      rename: { old_name: 'new_name' },
    });
    const client = await clientOf(endpoint, '2026-07-28');
    const names = (await client.listAllTools()).map((tool) => tool.name).sort();
    expect(names).toEqual(['b_era', 'b_keyed', 'new_name']);
    expect((await client.callTool('new_name')).content[0]).toMatchObject({ text: 'renamed' });
    await expect(client.callTool('b_hidden')).rejects.toMatchObject({ code: -32602 });
    await client.close();
  });

  it('shows tools and prompts by the tags FastMCP servers send, and reaches only those', async () => {
    const tagged = (meta: JsonObject) => ({ _meta: meta });
    const upstream = createServer({ name: 'tagged', version: '1.0.0' })
      .tool('report', tagged({ fastmcp: { tags: ['reporting', 'read'] } }), () => text('report'))
      .tool('legacy_tagged', tagged({ _fastmcp: { tags: ['read'] } }), () => text('legacy'))
      .tool('wipe', tagged({ fastmcp: { tags: ['read', 'admin'] } }), () => text('wiped'))
      .tool('untagged', {}, () => text('untagged'))
      .tool('odd_tags', tagged({ fastmcp: { tags: 'read' } }), () => text('odd'))
      .prompt('summary', tagged({ fastmcp: { tags: ['read'] } }), () =>
        messages([message('user', 'Summarise')]),
      )
      .prompt('draft', {}, () => messages([message('user', 'Draft')]));
    const { endpoint } = gateway(memoryUpstream(endpointOf(upstream, 'both')), {
      namespace: '',
      includeTags: ['read'],
      excludeTags: ['admin'],
      exclude: ['legacy_*'],
    });
    const client = await clientOf(endpoint, '2026-07-28');
    expect((await client.listAllTools()).map((tool) => tool.name).sort()).toEqual(['report']);
    expect((await client.listAllPrompts()).map((prompt) => prompt.name)).toEqual(['summary']);
    expect((await client.callTool('report')).content[0]).toMatchObject({ text: 'report' });
    // Hidden by a tag is hidden for calls too, not only in the list.
    await expect(client.callTool('wipe')).rejects.toMatchObject({ code: -32602 });
    await expect(client.callTool('untagged')).rejects.toMatchObject({ code: -32602 });
    await client.close();
  });

  it('takes a slot of the concurrency limit for a completion, as for a call', async () => {
    let release = (): void => undefined;
    let holding = false;
    const held = new Promise<void>((resolve) => (release = resolve));
    const upstream = createServer({ name: 'busy', version: '1.0.0' })
      .tool('hold', {}, async () => {
        holding = true;
        await held;
        return text('released');
      })
      .prompt('ask', { arguments: [{ name: 'city' }] as const }, () =>
        messages([message('user', 'Where?')]),
      )
      .completion({ prompt: 'ask' }, 'city', (value) =>
        ['Oslo', 'Bergen'].filter((city) => city.startsWith(value)),
      );
    const { endpoint } = gateway(memoryUpstream(endpointOf(upstream, 'both')), {
      namespace: 'b',
      maxConcurrent: 1,
      maxQueued: 0,
    });
    const client = await clientOf(endpoint, '2026-07-28');
    const ref = { type: 'ref/prompt', name: 'b_ask' } as const;
    const call = client.callTool('b_hold');
    await vi.waitFor(() => expect(holding).toBe(true));
    await expect(client.complete(ref, { name: 'city', value: 'O' })).rejects.toMatchObject({
      message: 'Upstream "b" is busy: 1 calls running and 0 waiting',
    });
    release();
    expect((await call).content[0]).toMatchObject({ text: 'released' });
    const answer = await client.complete(ref, { name: 'city', value: 'B' });
    expect(answer.completion.values).toEqual(['Bergen']);
    await client.close();
  });

  it('forwards prompts, resources and their reads', async () => {
    const { endpoint } = gateway(memoryUpstream(bothEras()), { namespace: 'b' });
    const client = await clientOf(endpoint, '2025-11-25');
    const prompt = await client.getPrompt('b_hello', { who: 'Ada' });
    expect(prompt.messages[0]?.content).toMatchObject({ type: 'text', text: 'Hello Ada' });
    expect((await client.listAllResources()).map((r) => r.uri)).toEqual(['memo://one']);
    expect((await client.readResource('memo://one')).contents[0]).toMatchObject({ text: 'first' });
    await client.close();
  });

  it('keeps a modern upstream input request key and passes the caller capabilities on', async () => {
    const { endpoint } = gateway(memoryUpstream(bothEras()), { era: '2026-07-28' });
    const keys: (string | undefined)[] = [];
    const client = await clientOf(endpoint, '2026-07-28', {
      elicitation: (_params, context) => {
        keys.push(context.key);
        return { action: 'accept', content: { name: 'Kay' } };
      },
    });
    expect((await client.callTool('keyed')).content[0]).toMatchObject({ text: 'got Kay' });
    expect(keys).toEqual(['user_name']);
    expect((await client.callTool('caps')).content[0]).toMatchObject({ text: 'elicitation' });
    await client.close();
  });

  it('serves each caller in its own era in mirror mode', async () => {
    const { endpoint } = gateway(memoryUpstream(bothEras()), { era: 'mirror' });
    const modern = await clientOf(endpoint, '2026-07-28');
    const legacy = await clientOf(endpoint, '2025-11-25');
    expect((await modern.callTool('era')).content[0]).toMatchObject({ text: 'modern' });
    expect((await legacy.callTool('era')).content[0]).toMatchObject({ text: 'legacy' });
    await modern.close();
    await legacy.close();
  });

  it('fails the tools of an upstream that is gone with an error naming it', async () => {
    const { endpoint: gatewayEndpoint, provider } = gateway(memoryUpstream(bothEras()), {
      namespace: 'f',
    });
    const client = await clientOf(gatewayEndpoint, '2026-07-28');
    expect((await client.listAllTools()).length).toBeGreaterThan(0);
    await provider.upstream.close();
    await expect(client.callTool('f_era')).rejects.toMatchObject({
      message: 'Upstream "f" is closed',
    });
    await client.close();
  });
});

describe('namespaced', () => {
  it('renames any provider by the same rules', async () => {
    const provider = namespaced(
      {
        name: 'static',
        tools: () => [{ name: 'a', inputSchema: { type: 'object' } }],
        callTool: async (name) => text(`called ${name}`),
      },
      { namespace: 'ns' },
    );
    const server = createServer({ name: 'host', version: '1' }).provider(provider);
    closeAfterTest(() => server.close());
    const client = await clientOf(endpointOf(server, 'both'), '2026-07-28');
    expect((await client.listAllTools()).map((t) => t.name)).toEqual(['ns_a']);
    expect((await client.callTool('ns_a')).content[0]).toMatchObject({ text: 'called a' });
    await client.close();
  });
});
