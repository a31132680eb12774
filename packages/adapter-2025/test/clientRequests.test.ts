import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type HandlerContext } from '@rondo/core';
import { text } from '@rondo/protocol';
import { LegacyTestClient, checkAndCloseClients, waitFor } from './support/legacyClient.js';

afterEach(checkAndCloseClients);

const nameSchema = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] };
const everything = { elicitation: { form: {}, url: {} }, sampling: { tools: {} }, roots: {} };

function askingServer() {
  return createServer({ name: 'asker', version: '1.0.0', log: () => {} })
    .tool('ask', { description: 'elicits' }, async (_args, ctx) => {
      const answer = await ctx.elicit('What is your name?', nameSchema);
      return text(
        answer.kind === 'accept'
          ? `Hello, ${JSON.stringify(answer.content.name)}!`
          : `no answer: ${answer.kind}`,
      );
    })
    .tool('sample', { description: 'samples' }, async (_args, ctx) => {
      const answer = await ctx.sample({
        messages: [{ role: 'user', content: text('Test prompt for sampling') }],
        maxTokens: 100,
      });
      return text(`LLM response: ${JSON.stringify(answer.content)}`);
    })
    .tool('roots', { description: 'lists roots' }, async (_args, ctx) =>
      text(`Found ${(await ctx.listRoots()).length} root(s)`),
    );
}

describe('server-to-client requests', () => {
  it('elicits on the call exchange and resumes with the client answer', async () => {
    const client = await LegacyTestClient.open(askingServer(), {
      capabilities: { elicitation: {} },
    });
    const record = client.send('tools/call', { name: 'ask' });
    const request = await client.serverRequest(record, 'elicitation/create');
    expect(request.params).toEqual({
      mode: 'form',
      message: 'What is your name?',
      requestedSchema: nameSchema,
    });
    expect(client.memory.connection.inFlight).toBe(1);
    client.answer(request, { action: 'accept', content: { name: 'Alice' } });
    expect(await record.ended).toMatchObject({
      result: { content: [{ type: 'text', text: 'Hello, "Alice"!' }] },
    });
  });

  it('samples and lists roots, with ids unique in the session', async () => {
    const client = await LegacyTestClient.open(askingServer(), { capabilities: everything });
    const sampling = client.send('tools/call', { name: 'sample' });
    const samplingRequest = await client.serverRequest(sampling, 'sampling/createMessage');
    expect(samplingRequest.params).toEqual({
      messages: [{ role: 'user', content: { type: 'text', text: 'Test prompt for sampling' } }],
      maxTokens: 100,
    });
    const rootsCall = client.send('tools/call', { name: 'roots' });
    const rootsRequest = await client.serverRequest(rootsCall, 'roots/list');
    expect(rootsRequest.id).not.toEqual(samplingRequest.id);
    client.answer(rootsRequest, { roots: [{ uri: 'file:///test/root', name: 'Test Root' }] });
    client.answer(samplingRequest, {
      role: 'assistant',
      content: { type: 'text', text: 'Paris' },
      model: 'test-model',
      stopReason: 'endTurn',
    });
    expect(await sampling.ended).toMatchObject({
      result: { content: [{ text: 'LLM response: {"type":"text","text":"Paris"}' }] },
    });
    expect(await rootsCall.ended).toMatchObject({
      result: { content: [{ text: 'Found 1 root(s)' }] },
    });
  });

  it('refuses, without sending, what the client did not declare', async () => {
    const client = await LegacyTestClient.open(askingServer(), { capabilities: { roots: {} } });
    for (const [tool, capability] of [
      ['ask', 'elicitation'],
      ['sample', 'sampling'],
    ] as const) {
      const record = client.send('tools/call', { name: tool });
      const final = await record.ended;
      expect(record.sent).toEqual([]);
      expect(final).toMatchObject({ result: { isError: true } });
      expect(JSON.stringify(final)).toContain(`needs the client capability \\"${capability}\\"`);
    }
  });

  it('gives up after the configured timeout and withdraws the request', async () => {
    const client = await LegacyTestClient.open(askingServer(), {
      capabilities: { elicitation: {} },
      era: { clientRequestTimeoutMs: 30 },
    });
    const record = client.send('tools/call', { name: 'ask' });
    const final = await record.ended;
    expect(JSON.stringify(final)).toContain('did not answer elicitation/create within 30 ms');
    const request = record.sent[0] as { id: string };
    expect(record.sent[1]).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: {
        requestId: request.id,
        reason: 'The client did not answer elicitation/create within 30 ms',
      },
    });
  });

  it('withdraws an outstanding request when the handler is cancelled', async () => {
    let failure: unknown;
    const server = askingServer().tool('patient', {}, async (_args, ctx: HandlerContext) => {
      try {
        await ctx.elicit('Wait', nameSchema);
      } catch (error) {
        failure = error;
      }
      return 'done';
    });
    const client = await LegacyTestClient.open(server, { capabilities: { elicitation: {} } });
    const record = client.send('tools/call', { name: 'patient' }, 'p-1');
    const request = await client.serverRequest(record, 'elicitation/create');
    client.notify('notifications/cancelled', { requestId: 'p-1' });
    await waitFor(() => failure, 'the elicitation to be rejected');
    expect(String(failure)).toContain('cancelled');
    expect(client.memory.peerMessages).toContainEqual({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: {
        requestId: request.id,
        reason: 'elicitation/create was cancelled because the request that asked was cancelled',
      },
    });
    expect(await record.ended).toBeUndefined();
  });

  it('reports a client error answer as the tool failure', async () => {
    const client = await LegacyTestClient.open(askingServer(), {
      capabilities: { elicitation: {} },
    });
    const record = client.send('tools/call', { name: 'ask' });
    const request = await client.serverRequest(record, 'elicitation/create');
    client.memory.send({
      jsonrpc: '2.0',
      id: request.id,
      error: { code: -32601, message: 'no handler' },
    });
    const final = await record.ended;
    expect(final).toMatchObject({ result: { isError: true } });
    expect(JSON.stringify(final)).toContain(
      'The client refused elicitation/create (-32601): no handler',
    );
  });
});

describe('2025-11-25 additions and their 2025-06-18 form', () => {
  const defaultsSchema = {
    type: 'object',
    properties: {
      name: { type: 'string', default: 'John Doe' },
      age: { type: 'integer', default: 30 },
      verified: { type: 'boolean', default: true },
      status: { type: 'string', enum: ['active', 'inactive'], default: 'active' },
      titled: {
        type: 'string',
        oneOf: [
          { const: 'value1', title: 'First Option' },
          { const: 'value2', title: 'Second Option' },
        ],
      },
    },
  };
  const server = () =>
    createServer({ name: 's', version: '1', log: () => {} })
      .tool('defaults', {}, async (_args, ctx) =>
        text((await ctx.elicit('Fill in', defaultsSchema)).kind),
      )
      .tool('multi', {}, async (_args, ctx) =>
        text(
          (
            await ctx.elicit('Pick', {
              type: 'object',
              properties: { many: { type: 'array', items: { type: 'string', enum: ['a', 'b'] } } },
            })
          ).kind,
        ),
      );

  it('sends default and titled enum schemas unchanged on 2025-11-25', async () => {
    const client = await LegacyTestClient.open(server(), {
      capabilities: { elicitation: { form: {} } },
    });
    const record = client.send('tools/call', { name: 'defaults' });
    const request = await client.serverRequest(record, 'elicitation/create');
    expect(request.params!.requestedSchema).toEqual(defaultsSchema);
    client.answer(request, { action: 'decline' });
    expect(await record.ended).toMatchObject({ result: { content: [{ text: 'decline' }] } });
  });

  it('downgrades elicitation schemas for 2025-06-18 and refuses multi-select', async () => {
    const client = await LegacyTestClient.open(server(), {
      protocolVersion: '2025-06-18',
      capabilities: { elicitation: {} },
    });
    const record = client.send('tools/call', { name: 'defaults' });
    const request = await client.serverRequest(record, 'elicitation/create');
    expect(request.params).toEqual({
      message: 'Fill in',
      requestedSchema: {
        type: 'object',
        properties: {
          name: { type: 'string' },
          age: { type: 'integer' },
          verified: { type: 'boolean', default: true },
          status: { type: 'string', enum: ['active', 'inactive'] },
          titled: {
            type: 'string',
            enum: ['value1', 'value2'],
            enumNames: ['First Option', 'Second Option'],
          },
        },
      },
    });
    client.answer(request, { action: 'cancel' });
    expect(await record.ended).toMatchObject({ result: { content: [{ text: 'cancel' }] } });
    const multi = await client.call('tools/call', { name: 'multi' });
    expect(multi).toMatchObject({ isError: true });
    expect(JSON.stringify(multi)).toContain('needs protocol revision 2025-11-25');
  });
});
