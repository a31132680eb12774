import { afterEach, expect, it } from 'vitest';
import { modernEra } from '@rondo/adapter-2026';
import { createServer, type HandlerContext } from '@rondo/core';
import { formElicitation, inputRequest, inputRequired, text } from '@rondo/protocol';
import { LegacyTestClient, checkAndCloseClients } from './support/legacyClient.js';

afterEach(checkAndCloseClients);

const nameSchema = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] };

function ask(_args: unknown, ctx: HandlerContext) {
  if (ctx.round === 1)
    return inputRequired([
      inputRequest('user_name', formElicitation('What is your name?', nameSchema)),
    ]);
  const answer = ctx.inputResponses.user_name;
  return text(
    `Hello, ${answer?.kind === 'accept' ? JSON.stringify(answer.content.name) : 'stranger'}!`,
  );
}

it('serves one provider to a legacy session and modern requests on one connection', async () => {
  const server = createServer({ name: 'both', version: '1.0.0', log: () => {} }).tool(
    'ask',
    { description: 'asks' },
    ask,
  );
  const client = await LegacyTestClient.open(server, {
    capabilities: { elicitation: {} },
    modern: modernEra(),
  });

  const legacy = client.send('tools/call', { name: 'ask' });
  client.answer(await client.serverRequest(legacy, 'elicitation/create'), {
    action: 'accept',
    content: { name: 'Alice' },
  });
  expect(await legacy.ended).toEqual({
    jsonrpc: '2.0',
    id: expect.anything(),
    result: { content: [{ type: 'text', text: 'Hello, "Alice"!' }] },
  });

  const meta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
  };
  const discover = await client.sendForeign({
    jsonrpc: '2.0',
    id: 'm-1',
    method: 'server/discover',
    params: { _meta: meta },
  }).ended;
  expect(discover).toMatchObject({
    result: { supportedVersions: expect.arrayContaining(['2026-07-28']) },
  });
  const modern = await client.sendForeign({
    jsonrpc: '2.0',
    id: 'm-2',
    method: 'tools/call',
    params: { name: 'ask', arguments: {}, _meta: meta },
  }).ended;
  expect(modern).toMatchObject({
    result: {
      resultType: 'input_required',
      inputRequests: { user_name: { method: 'elicitation/create' } },
    },
  });
  expect(client.memory.connection.stateful).toBe(true);
});

const colourSchema = {
  type: 'object',
  properties: { colour: { type: 'string', enum: ['red', 'green'] } },
  required: ['colour'],
};

/** A round hook that asks for a colour from a closed list and echoes what it got. */
function pickColour(_args: unknown, ctx: HandlerContext) {
  const answer = ctx.inputResponses.colour;
  if (answer === undefined)
    return inputRequired([inputRequest('colour', formElicitation('Pick a colour', colourSchema))]);
  return text(answer.kind === 'accept' ? JSON.stringify(answer.content.colour) : answer.kind);
}

const modernMeta = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
};

it('refuses an out-of-schema elicitation answer alike in both eras (issue 12)', async () => {
  const handled: unknown[] = [];
  const server = createServer({ name: 'both', version: '1.0.0', log: () => {} }).tool(
    'pick',
    { description: 'picks a colour' },
    (args, ctx) => {
      if (ctx.round > 1) handled.push(ctx.inputResponses.colour);
      return pickColour(args, ctx);
    },
  );
  const client = await LegacyTestClient.open(server, {
    capabilities: { elicitation: {} },
    modern: modernEra(),
  });
  const outOfEnum = { action: 'accept', content: { colour: 'purple' } };

  const legacy = client.send('tools/call', { name: 'pick' });
  client.answer(await client.serverRequest(legacy, 'elicitation/create'), outOfEnum);
  const legacyAnswer = (await legacy.ended) as { error?: { code: number; message: string } };

  const first = (await client.sendForeign({
    jsonrpc: '2.0',
    id: 'm-1',
    method: 'tools/call',
    params: { _meta: modernMeta, name: 'pick' },
  }).ended) as unknown as { result: { requestState: string } };
  const retry = (await client.sendForeign({
    jsonrpc: '2.0',
    id: 'm-2',
    method: 'tools/call',
    params: {
      _meta: modernMeta,
      name: 'pick',
      inputResponses: { colour: outOfEnum },
      requestState: first.result.requestState,
    },
  }).ended) as { error?: { code: number; message: string } };

  expect(legacyAnswer.error).toMatchObject({ code: -32602 });
  expect(legacyAnswer.error?.message).toContain('does not match the requested schema');
  expect(retry.error).toEqual(legacyAnswer.error);
  expect(handled).toEqual([]);
});

it('lists every revision the endpoint serves in server/discover and in -32022 (issue 12)', async () => {
  const server = createServer({ name: 'both', version: '1.0.0', log: () => {} });
  const client = new LegacyTestClient(server, { modern: modernEra() });
  const discover = (await client.sendForeign({
    jsonrpc: '2.0',
    id: 'd-1',
    method: 'server/discover',
    params: { _meta: modernMeta },
  }).ended) as unknown as { result: { supportedVersions: string[] } };
  expect(discover.result.supportedVersions).toEqual(['2026-07-28', '2025-11-25', '2025-06-18']);
  const unsupported = (await client.sendForeign({
    jsonrpc: '2.0',
    id: 'd-2',
    method: 'server/discover',
    params: { _meta: { ...modernMeta, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' } },
  }).ended) as { error: { code: number; data: { supported: string[] } } };
  expect(unsupported.error.code).toBe(-32022);
  expect(unsupported.error.data.supported).toEqual(['2026-07-28', '2025-11-25', '2025-06-18']);
});

it('tells middleware the revision being negotiated, from initialize on', async () => {
  const seen: string[] = [];
  const server = createServer({ name: 'revisions', version: '1.0.0', log: () => {} });
  server.use(async (call, next) => {
    seen.push(`${call.method} ${call.revision}`);
    return next();
  });
  const client = await LegacyTestClient.open(server, { protocolVersion: '2025-06-18' });
  await client.call('tools/list');
  expect(seen).toEqual(['initialize 2025-06-18', 'tools/list 2025-06-18']);
});
