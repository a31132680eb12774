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
