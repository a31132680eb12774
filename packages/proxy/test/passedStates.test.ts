import { Client } from '@rondo/client';
import { createServer, type Endpoint } from '@rondo/core';
import {
  formElicitation,
  inputRequest,
  inputRequired,
  text,
  type JsonRpcMessage,
} from '@rondo/protocol';
import { describe, expect, it } from 'vitest';
import {
  authenticatedTransport,
  closeAfterTest,
  endpointOf,
  memoryUpstream,
  NAME_FORM,
  passingGateway,
} from './support.js';

// Issue 38: a passed-through round's requestState is the gateway's seal around the upstream's,
// bound to the caller's principal, so another principal cannot finish it.

function askingUpstream(states: unknown[]) {
  const server = createServer({ name: 'modern-upstream', version: '1.0.0' }).tool(
    'greet',
    {},
    (_args, ctx) => {
      states.push(ctx.requestState);
      const answer = ctx.inputResponses.name;
      if (answer?.kind !== 'accept') {
        return inputRequired([inputRequest('name', formElicitation('Your name?', NAME_FORM))], {
          asked: 1,
        });
      }
      return text(`Hello, ${answer.content.name as string}!`);
    },
  );
  return endpointOf(server, 'modern');
}

async function clientAs(endpoint: Endpoint, principal: string, sent: JsonRpcMessage[]) {
  const client = new Client({
    transport: authenticatedTransport(endpoint, principal, sent),
    era: '2026-07-28',
    handlers: { elicitation: () => ({ action: 'accept', content: { name: principal } }) },
  });
  await client.connect();
  closeAfterTest(() => client.close());
  return client;
}

describe('a passed-through requestState', () => {
  it("is sealed for its caller: the caller's retry finishes the call, another principal's is refused", async () => {
    const states: unknown[] = [];
    const { endpoint, passed } = passingGateway(memoryUpstream(askingUpstream(states)), {
      namespace: 'm',
    });
    const aliceSent: JsonRpcMessage[] = [];
    const alice = await clientAs(endpoint, 'alice', aliceSent);
    const result = await alice.callTool('m_greet');
    expect(result.content[0]).toMatchObject({ text: 'Hello, alice!' });
    expect(passed).toHaveBeenCalledTimes(2);
    // The upstream got its own state back; the caller saw only the gateway's seal around it.
    expect(states).toEqual([undefined, { asked: 1 }]);
    const retry = aliceSent.find(
      (message) => 'params' in message && message.params?.requestState !== undefined,
    ) as { params: Record<string, unknown> };
    const sealed = retry.params.requestState;
    expect(typeof sealed).toBe('string');
    expect(sealed).not.toContain('asked');

    const mallory = await clientAs(endpoint, 'mallory', []);
    await expect(
      mallory.request('tools/call', {
        name: 'm_greet',
        arguments: {},
        requestState: sealed,
        inputResponses: { name: { action: 'accept', content: { name: 'mallory' } } },
      }),
    ).rejects.toMatchObject({ code: -32602, message: 'Invalid or expired requestState' });
    // The replayed state never reached the upstream.
    expect(states).toHaveLength(2);
  });
});
