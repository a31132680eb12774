import { modernEra } from '@rondo/adapter-2026';
import { createEndpoint, createServer } from '@rondo/core';
import { MetaKey, formElicitation, inputRequest, inputRequired, text } from '@rondo/protocol';
import { describe, expect, it } from 'vitest';
import { Client, inMemoryTransport, McpError } from '../src/index.js';

describe('Client.forward', () => {
  it('sends params as they are and resolves with the result unchecked, an input_required round included', async () => {
    const seenMeta: unknown[] = [];
    const server = createServer({ name: 'forwarded', version: '1.0.0' }).tool(
      'ask',
      {},
      (_args, ctx) => {
        seenMeta.push(ctx.clientCapabilities);
        if (ctx.inputResponses.name === undefined) {
          return inputRequired([
            inputRequest('name', formElicitation('Name?', { type: 'object' })),
          ]);
        }
        return text('answered');
      },
    );
    const endpoint = createEndpoint(server, { modern: modernEra() });
    const client = new Client({ transport: inMemoryTransport(endpoint), era: '2026-07-28' });
    await client.connect();
    const meta = {
      [MetaKey.protocolVersion]: '2026-07-28',
      [MetaKey.clientInfo]: { name: 'caller', version: '2.0.0' },
      [MetaKey.clientCapabilities]: { elicitation: { form: {} } },
    };
    const round = await client.forward('tools/call', { name: 'ask', arguments: {}, _meta: meta });
    // Not answered by the client's handlers (it has none): the round comes back as it is.
    expect(round.resultType).toBe('input_required');
    expect(seenMeta).toEqual([{ elicitation: { form: {} } }]);
    await expect(
      client.forward('tools/call', { name: 'missing', arguments: {}, _meta: meta }),
    ).rejects.toBeInstanceOf(McpError);
    await client.close();
    await server.close();
  });
});
