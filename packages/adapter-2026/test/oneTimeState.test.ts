import { describe, expect, it } from 'vitest';
import type { ServerOptions } from '@rondo/core';
import {
  formElicitation,
  inputRequest,
  inputRequired,
  text,
  type JsonObject,
} from '@rondo/protocol';
import { ModernClient } from './support/modernClient.js';
import { buildTestServer } from './support/testServer.js';

// Issue 31, point 9: a sealed requestState is valid until it expires, so by default it can be sent
// again; `requestState.oneTime` accepts it once.
const KEY = 'test-key-0123456789abcdef-key-0123456789';
const OK: JsonObject = {
  type: 'object',
  properties: { ok: { type: 'boolean' } },
  required: ['ok'],
};

/** A server whose `pay` tool confirms, then pays, counting the payments. */
function payingServer(requestState: ServerOptions['requestState']) {
  const paid: number[] = [];
  const server = buildTestServer({ requestState: { key: KEY, ...requestState } }).tool(
    'pay',
    { description: 'Pays once confirmed', input: { type: 'object', properties: {} } },
    (_args, ctx) => {
      if (!ctx.inputResponses.confirm)
        return inputRequired([inputRequest('confirm', formElicitation('Pay 10?', OK))]);
      paid.push(10);
      return text(`paid ${paid.length}`);
    },
  );
  return { client: new ModernClient(server), paid };
}

const retry = (requestState: unknown) => ({
  name: 'pay',
  arguments: {},
  inputResponses: { confirm: { action: 'accept', content: { ok: true } } },
  requestState,
});

describe('a one-time requestState', () => {
  it('is accepted once; the replay is -32602 and the round does not run again', async () => {
    const { client, paid } = payingServer({ oneTime: ['pay'] });
    const first = await client.result('tools/call', { name: 'pay', arguments: {} });
    expect(first.resultType).toBe('input_required');
    expect((await client.result('tools/call', retry(first.requestState))).content).toEqual([
      { type: 'text', text: 'paid 1' },
    ]);
    for (let i = 0; i < 4; i++)
      expect(await client.error('tools/call', retry(first.requestState))).toMatchObject({
        code: -32602,
        message: 'Invalid or expired requestState',
      });
    expect(paid).toEqual([10]);
    // A fresh round of the same tool is a new state, accepted once in turn.
    const again = await client.result('tools/call', { name: 'pay', arguments: {} });
    expect((await client.result('tools/call', retry(again.requestState))).content).toEqual([
      { type: 'text', text: 'paid 2' },
    ]);
  });

  it('applies to every round request with `oneTime: true`, and to none by default', async () => {
    const once = payingServer({ oneTime: true });
    const state = (await once.client.result('tools/call', { name: 'pay', arguments: {} }))
      .requestState;
    await once.client.result('tools/call', retry(state));
    expect((await once.client.error('tools/call', retry(state))).code).toBe(-32602);

    const replayable = payingServer({});
    const open = (await replayable.client.result('tools/call', { name: 'pay', arguments: {} }))
      .requestState;
    for (let i = 0; i < 3; i++) await replayable.client.result('tools/call', retry(open));
    expect(replayable.paid).toHaveLength(3);
  });

  it('leaves tools it does not name replayable', async () => {
    const { client, paid } = payingServer({ oneTime: ['transfer'] });
    const state = (await client.result('tools/call', { name: 'pay', arguments: {} })).requestState;
    await client.result('tools/call', retry(state));
    await client.result('tools/call', retry(state));
    expect(paid).toHaveLength(2);
  });

  it('refuses the next state with -32603 when maxUsedStates ids are kept and none expired', async () => {
    const { client, paid } = payingServer({ oneTime: true, maxUsedStates: 2 });
    const states = [];
    for (let i = 0; i < 3; i++)
      states.push((await client.result('tools/call', { name: 'pay', arguments: {} })).requestState);
    await client.result('tools/call', retry(states[0]));
    await client.result('tools/call', retry(states[1]));
    expect(await client.error('tools/call', retry(states[2]))).toMatchObject({
      code: -32603,
      message: expect.stringMatching(/limit maxUsedStates: 2/),
    });
    expect(paid).toHaveLength(2);
  });
});
