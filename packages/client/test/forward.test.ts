import { modernEra } from '@rondo/adapter-2026';
import { createEndpoint, createServer } from '@rondo/core';
import { MetaKey, formElicitation, inputRequest, inputRequired, text } from '@rondo/protocol';
import { LazyAbortController } from '@rondo/core/internal';
import { describe, expect, it } from 'vitest';
import { Client, inMemoryTransport, McpError, RequestAbortedError } from '../src/index.js';

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

  it('gives a call up when its cancellation aborts, and the server hears notifications/cancelled', async () => {
    let cancelledOnServer: unknown;
    const server = createServer({ name: 'slow', version: '1.0.0' }).tool(
      'wait',
      {},
      async (_args, ctx) => {
        await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve));
        cancelledOnServer = ctx.signal.reason;
        return text('late');
      },
    );
    const client = new Client({
      transport: inMemoryTransport(createEndpoint(server, { modern: modernEra() })),
      era: '2026-07-28',
    });
    await client.connect();
    const meta = {
      [MetaKey.protocolVersion]: '2026-07-28',
      [MetaKey.clientInfo]: { name: 'caller', version: '2.0.0' },
      [MetaKey.clientCapabilities]: {},
    };
    const cancellation = new LazyAbortController();
    const call = client.forward(
      'tools/call',
      { name: 'wait', arguments: {}, _meta: meta },
      {
        cancellation,
      },
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    cancellation.abort(new Error('the caller left'));
    await expect(call).rejects.toBeInstanceOf(RequestAbortedError);
    await expect.poll(() => cancelledOnServer).toBeDefined();

    const already = new LazyAbortController();
    already.abort(new Error('before sending'));
    await expect(
      client.forward(
        'tools/call',
        { name: 'wait', arguments: {}, _meta: meta },
        {
          cancellation: already,
        },
      ),
    ).rejects.toBeInstanceOf(RequestAbortedError);
    await client.close();
    await server.close();
  });
});

describe('Client.forwardTo', () => {
  it('gives the result, an error and a refusal before connecting to the receiver, with no promise', async () => {
    const server = createServer({ name: 'forwarded', version: '1.0.0' }).tool('hi', {}, () =>
      text('hello'),
    );
    const endpoint = createEndpoint(server, { modern: modernEra() });
    const client = new Client({ transport: inMemoryTransport(endpoint), era: '2026-07-28' });
    const answers: unknown[] = [];
    const receiver = (done: () => void) => ({
      resolve: (result: Record<string, unknown>) => {
        answers.push(result);
        done();
      },
      reject: (error: Error) => {
        answers.push(error);
        done();
      },
    });
    // Before connecting: refused at once, through the receiver.
    client.forwardTo(
      'tools/call',
      { name: 'hi', arguments: {} },
      receiver(() => undefined),
    );
    expect(answers).toHaveLength(1);
    expect((answers[0] as Error).message).toMatch(/not connected/);
    await client.connect();
    const meta = {
      [MetaKey.protocolVersion]: '2026-07-28',
      [MetaKey.clientInfo]: { name: 'caller', version: '2.0.0' },
      [MetaKey.clientCapabilities]: {},
    };
    await new Promise<void>((done) =>
      client.forwardTo('tools/call', { name: 'hi', arguments: {}, _meta: meta }, receiver(done)),
    );
    expect(answers[1]).toMatchObject({ content: [{ type: 'text', text: 'hello' }] });
    await new Promise<void>((done) =>
      client.forwardTo('tools/call', { name: 'nope', arguments: {}, _meta: meta }, receiver(done)),
    );
    expect(answers[2]).toBeInstanceOf(McpError);
    await client.close();
    await server.close();
  });
});
