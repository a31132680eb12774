import { createServer } from '@rondo/core';
import { formElicitation, inputRequest, inputRequired, text } from '@rondo/protocol';
import { describe, expect, it } from 'vitest';
import {
  clientOf,
  endpointOf,
  gateway,
  legacyAsker,
  memoryUpstream,
  NAME_FORM,
} from './support.js';

/** An upstream that asks with round hooks only (modern era). */
function modernAsker() {
  const server = createServer({ name: 'modern-asker', version: '1.0.0' }).tool(
    'greet',
    {},
    (_args, ctx) => {
      const answer = ctx.inputResponses.name;
      if (answer?.kind !== 'accept') {
        return inputRequired([inputRequest('name', formElicitation('Your name?', NAME_FORM))]);
      }
      return text(`Hello, ${answer.content.name as string}!`);
    },
  );
  return endpointOf(server, 'modern');
}

describe('era translation through the proxy', () => {
  it('turns a legacy upstream elicitation and sampling into input_required rounds for a modern client', async () => {
    const { endpoint, provider } = gateway(memoryUpstream(legacyAsker()), {
      namespace: 'up',
    });
    const eras: string[] = [];
    const client = await clientOf(endpoint, '2026-07-28', {
      elicitation: (_params, context) => {
        eras.push(`elicit:${context.era}`);
        return { action: 'accept', content: { name: 'Ada' } };
      },
      sampling: (params, context) => {
        eras.push(`sample:${context.era}`);
        expect(params.messages[0]?.content).toMatchObject({ type: 'text', text: 'Greet Ada' });
        return { role: 'assistant', content: { type: 'text', text: 'Hi Ada' }, model: 'test' };
      },
    });
    const result = await client.callTool('up_greet');
    expect(result.content[0]).toMatchObject({
      type: 'text',
      text: 'Ada: {"type":"text","text":"Hi Ada"}',
    });
    // Each question reached the modern client as an input_required round, not a server request.
    expect(eras).toEqual(['elicit:modern', 'sample:modern']);
    expect(provider.suspendedCalls).toBe(0);
    await client.close();
  });

  it('answers roots/list through a round', async () => {
    const { endpoint } = gateway(memoryUpstream(legacyAsker()), { namespace: '' });
    const client = await clientOf(endpoint, '2026-07-28', {
      roots: () => [{ uri: 'file:///work', name: 'work' }],
    });
    const result = await client.callTool('roots');
    expect(result.content[0]).toMatchObject({ text: '[{"uri":"file:///work","name":"work"}]' });
    await client.close();
  });

  it('turns a modern upstream input_required round into a server-to-client request for a legacy client', async () => {
    const { endpoint } = gateway(memoryUpstream(modernAsker()), { namespace: 'm' });
    const eras: string[] = [];
    const client = await clientOf(endpoint, '2025-11-25', {
      elicitation: (_params, context) => {
        eras.push(context.era);
        return { action: 'accept', content: { name: 'Grace' } };
      },
    });
    const result = await client.callTool('m_greet');
    expect(result.content[0]).toMatchObject({ text: 'Hello, Grace!' });
    expect(eras).toEqual(['legacy']);
    await client.close();
  });

  it('passes a declined elicitation on to the upstream', async () => {
    const { endpoint } = gateway(memoryUpstream(legacyAsker()));
    const client = await clientOf(endpoint, '2026-07-28', {
      elicitation: () => ({ action: 'decline' }),
    });
    expect((await client.callTool('greet')).content[0]).toMatchObject({
      text: 'no name (decline)',
    });
    await client.close();
  });

  it('fails a retry after its suspended call expired, saying so, and cancels the upstream call', async () => {
    const { endpoint, provider } = gateway(memoryUpstream(legacyAsker()), {
      suspendedTtlMs: 30,
    });
    const client = await clientOf(endpoint, '2026-07-28', {
      elicitation: async () => {
        await new Promise((resolve) => setTimeout(resolve, 150));
        return { action: 'accept', content: { name: 'Late' } };
      },
    });
    await expect(client.callTool('greet')).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('expired'),
    });
    expect(provider.suspendedCalls).toBe(0);
    await client.close();
  });

  it('refuses more suspended calls than its bound', async () => {
    const { endpoint } = gateway(memoryUpstream(legacyAsker()), { maxSuspended: 0 });
    const client = await clientOf(endpoint, '2026-07-28', {
      elicitation: () => ({ action: 'accept', content: { name: 'X' } }),
    });
    await expect(client.callTool('greet')).rejects.toMatchObject({
      message: expect.stringContaining(
        'is busy: the gateway holds 0 calls waiting for their clients (maxSuspended)',
      ),
    });
    await client.close();
  });

  it('keeps sampling requests in a legacy client on the legacy path', async () => {
    const { endpoint } = gateway(memoryUpstream(legacyAsker()));
    const eras: string[] = [];
    const client = await clientOf(endpoint, '2025-06-18', {
      elicitation: (_p, c) => {
        eras.push(c.era);
        return { action: 'accept', content: { name: 'Lin' } };
      },
      sampling: (_p, c) => {
        eras.push(c.era);
        return { role: 'assistant', content: { type: 'text', text: 'yo' }, model: 'm' };
      },
    });
    expect((await client.callTool('greet')).content[0]).toMatchObject({
      text: 'Lin: {"type":"text","text":"yo"}',
    });
    expect(eras).toEqual(['legacy', 'legacy']);
    await client.close();
  });
});
