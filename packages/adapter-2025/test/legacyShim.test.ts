import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type HandlerContext } from '@rondo/core';
import {
  contents,
  formElicitation,
  inputRequest,
  inputRequired,
  message,
  messages,
  roots,
  sampling,
  text,
  textContent,
  urlElicitation,
  type InputResponseValue,
} from '@rondo/protocol';
import { LegacyTestClient, checkAndCloseClients } from './support/legacyClient.js';

afterEach(checkAndCloseClients);

const nameSchema = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] };
const colorSchema = {
  type: 'object',
  properties: { color: { type: 'string' } },
  required: ['color'],
};
const allCapabilities = { elicitation: { form: {}, url: {} }, sampling: {}, roots: {} };

function accepted(value: InputResponseValue | undefined, field: string): string {
  return value?.kind === 'accept'
    ? JSON.stringify(value.content[field])
    : `(${value?.kind ?? 'none'})`;
}

/** A hook in the shape of the conformance suite's multi-round tool, written once for both eras. */
function multiRound(_args: unknown, ctx: HandlerContext) {
  if (ctx.round === 1)
    return inputRequired(
      [inputRequest('step1', formElicitation('Step 1: What is your name?', nameSchema))],
      'step1',
    );
  if (ctx.requestState === 'step1') {
    const name = accepted(ctx.inputResponses.step1, 'name');
    return inputRequired(
      [inputRequest('step2', formElicitation('Step 2: What is your favorite color?', colorSchema))],
      { name },
    );
  }
  const { name } = ctx.requestState as { name: string };
  return text(`${name} likes ${accepted(ctx.inputResponses.step2, 'color')} (round ${ctx.round})`);
}

function shimServer(roundLimit?: number) {
  return createServer({
    name: 'shim',
    version: '1.0.0',
    log: () => {},
    ...(roundLimit ? { roundLimit } : {}),
  })
    .tool('multi_round', { description: 'three rounds' }, multiRound)
    .tool('multiple_inputs', { description: 'one round, three inputs' }, (_args, ctx) => {
      if (ctx.round === 1) {
        return inputRequired(
          [
            inputRequest('user_name', formElicitation('What is your name?', nameSchema)),
            inputRequest(
              'greeting',
              sampling([{ role: 'user', content: text('Generate a greeting') }], { maxTokens: 50 }),
            ),
            inputRequest('client_roots', roots()),
          ],
          'multi',
        );
      }
      const greeting = ctx.inputResponses.greeting;
      const rootList = ctx.inputResponses.client_roots;
      return text(
        `${accepted(ctx.inputResponses.user_name, 'name')} / ${greeting?.kind === 'sampling_result' ? JSON.stringify(greeting.content) : '?'} / ` +
          `${rootList?.kind === 'roots_result' ? rootList.roots.length : '?'} root(s) / state ${JSON.stringify(ctx.requestState)}`,
      );
    })
    .tool('forever', { description: 'always asks again' }, (_args, ctx) =>
      inputRequired([], { round: ctx.round }),
    )
    .tool('url', { description: 'url elicitation' }, (_args, ctx) =>
      ctx.round === 1
        ? inputRequired([
            inputRequest('login', urlElicitation('Log in', 'https://example.com/login', 'el-1')),
          ])
        : text(ctx.inputResponses.login?.kind ?? '?'),
    )
    .prompt('context_prompt', { description: 'asks for context' }, (_args, ctx) =>
      ctx.round === 1
        ? inputRequired([
            inputRequest(
              'user_context',
              formElicitation('What context should the prompt use?', {
                type: 'object',
                properties: { context: { type: 'string' } },
              }),
            ),
          ])
        : messages([
            message('user', `Context: ${accepted(ctx.inputResponses.user_context, 'context')}`),
          ]),
    )
    .resource('test://gated', { name: 'gated' }, (uri, ctx) =>
      ctx.round === 1
        ? inputRequired([
            inputRequest('ok', formElicitation('Allow?', { type: 'object', properties: {} })),
          ])
        : contents([textContent(uri, 'text/plain', ctx.inputResponses.ok?.kind ?? '?')]),
    );
}

describe('the legacy shim', () => {
  it('drives a three-round hook through real elicitation requests', async () => {
    const client = await LegacyTestClient.open(shimServer(), { capabilities: allCapabilities });
    const record = client.send('tools/call', { name: 'multi_round', arguments: {} });
    const first = await client.serverRequest(record, 'elicitation/create');
    expect(first.params).toMatchObject({ message: 'Step 1: What is your name?' });
    client.answer(first, { action: 'accept', content: { name: 'Alice' } });
    const second = await client.serverRequest(record, 'elicitation/create', 1);
    expect(second.params).toMatchObject({ message: 'Step 2: What is your favorite color?' });
    client.answer(second, { action: 'accept', content: { color: 'blue' } });
    expect(await record.ended).toMatchObject({
      result: { content: [{ type: 'text', text: '"Alice" likes "blue" (round 3)' }] },
    });
    expect(JSON.stringify(record.final)).not.toContain('input_required');
  });

  it('answers every input of a round, in order, and hands the state back', async () => {
    const client = await LegacyTestClient.open(shimServer(), { capabilities: allCapabilities });
    const record = client.send('tools/call', { name: 'multiple_inputs' });
    client.answer(await client.serverRequest(record, 'elicitation/create'), {
      action: 'accept',
      content: { name: 'Alice' },
    });
    client.answer(await client.serverRequest(record, 'sampling/createMessage'), {
      role: 'assistant',
      content: { type: 'text', text: 'Hello there!' },
      model: 'test-model',
    });
    client.answer(await client.serverRequest(record, 'roots/list'), {
      roots: [{ uri: 'file:///test/root', name: 'Test Root' }],
    });
    expect(await record.ended).toMatchObject({
      result: {
        content: [
          { text: '"Alice" / {"type":"text","text":"Hello there!"} / 1 root(s) / state "multi"' },
        ],
      },
    });
  });

  it('passes decline and cancel on to the hook', async () => {
    const client = await LegacyTestClient.open(shimServer(), { capabilities: allCapabilities });
    const record = client.send('tools/call', { name: 'multi_round' });
    client.answer(await client.serverRequest(record, 'elicitation/create'), { action: 'decline' });
    client.answer(await client.serverRequest(record, 'elicitation/create', 1), {
      action: 'cancel',
    });
    expect(await record.ended).toMatchObject({
      result: { content: [{ text: '(decline) likes (cancel) (round 3)' }] },
    });
  });

  it('fails a hook that still asks for input at the round limit', async () => {
    const client = await LegacyTestClient.open(shimServer(3), { capabilities: allCapabilities });
    const result = await client.call('tools/call', { name: 'forever' });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result)).toContain('round limit (3 rounds)');
  });

  it('checks the client capabilities before sending any input request of a round', async () => {
    const client = await LegacyTestClient.open(shimServer(), { capabilities: { elicitation: {} } });
    const record = client.send('tools/call', { name: 'multiple_inputs' });
    const final = await record.ended;
    expect(record.sent).toEqual([]);
    expect(final).toMatchObject({ result: { isError: true } });
    expect(JSON.stringify(final)).toContain('needs the client capability \\"sampling\\"');
  });

  it('refuses a prompt round the client cannot serve with -32600', async () => {
    const client = await LegacyTestClient.open(shimServer(), { capabilities: {} });
    const refused = await client.request('prompts/get', { name: 'context_prompt' });
    expect(refused).toMatchObject({ error: { code: -32600 } });
  });

  it('runs prompt and resource round hooks too', async () => {
    const client = await LegacyTestClient.open(shimServer(), { capabilities: allCapabilities });
    const prompt = client.send('prompts/get', { name: 'context_prompt' });
    client.answer(await client.serverRequest(prompt, 'elicitation/create'), {
      action: 'accept',
      content: { context: 'test context' },
    });
    expect(await prompt.ended).toMatchObject({
      result: { messages: [{ role: 'user', content: { text: 'Context: "test context"' } }] },
    });
    const read = client.send('resources/read', { uri: 'test://gated' });
    client.answer(await client.serverRequest(read, 'elicitation/create'), {
      action: 'accept',
      content: {},
    });
    expect(await read.ended).toMatchObject({
      result: { contents: [{ uri: 'test://gated', text: 'accept' }] },
    });
  });

  it('sends URL-mode elicitation on 2025-11-25 only when declared, never on 2025-06-18', async () => {
    const modern = await LegacyTestClient.open(shimServer(), { capabilities: allCapabilities });
    const record = modern.send('tools/call', { name: 'url' });
    const request = await modern.serverRequest(record, 'elicitation/create');
    expect(request.params).toEqual({
      mode: 'url',
      message: 'Log in',
      url: 'https://example.com/login',
      elicitationId: 'el-1',
    });
    modern.answer(request, { action: 'accept' });
    expect(await record.ended).toMatchObject({ result: { content: [{ text: 'accept' }] } });
    const formOnly = await LegacyTestClient.open(shimServer(), {
      capabilities: { elicitation: { form: {} } },
    });
    expect(JSON.stringify(await formOnly.call('tools/call', { name: 'url' }))).toContain(
      'elicitation.url',
    );
    const older = await LegacyTestClient.open(shimServer(), {
      protocolVersion: '2025-06-18',
      capabilities: { elicitation: {} },
    });
    expect(await older.call('tools/call', { name: 'url' })).toMatchObject({ isError: true });
  });
});
