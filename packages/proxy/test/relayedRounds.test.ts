import { MemorySessionRelay, type HandlerContext } from '@rondo/core';
import type { InputRequiredValue, JsonObject, JsonRpcMessage } from '@rondo/protocol';
import { describe, expect, it } from 'vitest';
import { testHandlerContext } from '@rondo/test-support/handlerContext';
import { proxy, type ProxyOptions, type ProxyProvider } from '../src/index.js';
import { RelaySeal } from '../src/relaySeal.js';
import { closeAfterTest, legacyAsker, memoryUpstream } from './support.js';

// Issue 26: a legacy upstream's suspended call survives on another process. Two proxies of one
// upstream name, each with its own connection to the upstream, share a relay as two gateway
// replicas share Redis: a retry reaching the proxy that does not hold the call is run by the one
// that does.

const ASKING = { elicitation: {}, sampling: {} } as JsonObject;

/** Two "replicas" of one proxied upstream sharing a memory relay, and what they warned. */
async function replicas(options: ProxyOptions = {}, optionsB: ProxyOptions = options) {
  const upstream = legacyAsker();
  const relay = new MemorySessionRelay();
  const warnings: string[] = [];
  const make = (label: string, own: ProxyOptions, shared: MemorySessionRelay) =>
    proxy(memoryUpstream(upstream, label), {
      name: 'asker',
      era: '2025-11-25',
      relay: shared,
      onWarning: (line) => warnings.push(line),
      ...own,
    });
  const a = make('a', options, relay);
  const b = make('b', optionsB, relay.peer());
  closeAfterTest(() => a.close());
  closeAfterTest(() => b.close());
  // Listing the catalog connects each proxy to the upstream, as a server does first.
  await Promise.all([a.tools(), b.tools()]);
  return { a, b, relay, warnings };
}

function ctx(overrides: Partial<HandlerContext> = {}): HandlerContext {
  return testHandlerContext({ clientCapabilities: ASKING, ...overrides });
}

/** The first round on `holder`: the upstream asks for the name. */
async function firstRound(holder: ProxyProvider, principal = 'alice') {
  const round = (await holder.callTool(
    'greet',
    {},
    ctx({ principal: { id: principal } }),
  )) as InputRequiredValue;
  expect(round).toMatchObject({
    kind: 'input_required',
    requests: [{ kind: 'input_request', request: { kind: 'form_elicitation' } }],
    state: { upstreamCall: expect.any(String), holder: expect.any(String) },
  });
  return { key: round.requests[0]!.key, state: round.state as Record<string, string> };
}

describe('a suspended call resumed through the relay', () => {
  it('runs every later round in the process holding the call, with its progress', async () => {
    const { a, b } = await replicas();
    const { key, state } = await firstRound(a);
    const progress: unknown[] = [];
    const second = (await b.callTool(
      'greet',
      {},
      ctx({
        principal: { id: 'alice' },
        requestState: state,
        inputResponses: { [key]: { kind: 'accept', content: { name: 'Ada' } } },
        progress: (...update) => progress.push(update),
      }),
    )) as InputRequiredValue;
    expect(second.requests[0]?.request).toMatchObject({ kind: 'sampling' });
    // The call stays where its upstream request runs; the next state names that process again.
    expect(second.state).toMatchObject({ holder: state.holder });
    expect([a.suspendedCalls, b.suspendedCalls]).toEqual([1, 0]);
    expect(progress).toEqual([[1, 2, 'named']]);
    const answer = {
      kind: 'sampling_result',
      role: 'assistant',
      content: { type: 'text', text: 'Hi Ada' },
      model: 'm',
    } as const;
    const done = await b.callTool(
      'greet',
      {},
      ctx({
        principal: { id: 'alice' },
        requestState: second.state,
        inputResponses: { [second.requests[0]!.key]: answer },
      }),
    );
    expect(done).toEqual({
      kind: 'results',
      items: [{ kind: 'text', text: 'Ada: {"type":"text","text":"Hi Ada"}' }],
    });
    expect(a.suspendedCalls).toBe(0);
  });

  it('refuses a retry of another principal and keeps the call for its owner', async () => {
    const { a, b } = await replicas();
    const { key, state } = await firstRound(a, 'alice');
    const answers = { [key]: { kind: 'decline' } as const };
    await expect(
      b.callTool(
        'greet',
        {},
        ctx({ principal: { id: 'mallory' }, requestState: state, inputResponses: answers }),
      ),
    ).rejects.toMatchObject({
      code: -32602,
      message: 'The suspended call belongs to another principal',
    });
    const done = await b.callTool(
      'greet',
      {},
      ctx({ principal: { id: 'alice' }, requestState: state, inputResponses: answers }),
    );
    expect(done).toMatchObject({ items: [{ text: 'no name (decline)' }] });
  });

  it('says the call expired when the holder no longer has it', async () => {
    const { a, b } = await replicas({ suspendedTtlMs: 30 });
    const { state } = await firstRound(a);
    await new Promise((resolve) => setTimeout(resolve, 80));
    await expect(
      b.callTool('greet', {}, ctx({ principal: { id: 'alice' }, requestState: state })),
    ).rejects.toMatchObject({
      code: -32602,
      message:
        'The suspended call to upstream "asker" is gone: it expired (after 30 ms) or ended; call again',
    });
  });

  it('says no process answered when the holder has stopped', async () => {
    const { a, b } = await replicas({}, { relayAckMs: 50 });
    const { state } = await firstRound(a);
    await a.close();
    await expect(
      b.callTool('greet', {}, ctx({ principal: { id: 'alice' }, requestState: state })),
    ).rejects.toMatchObject({
      code: -32603,
      message: `No gateway process answered for the suspended call to upstream "asker" (held by process ${state.holder}) within 50 ms: that process has stopped or lost the shared state; call again`,
    });
    expect(b.relayedRounds).toBe(0);
  });

  it('bounds the rounds it awaits from other processes', async () => {
    const { a, b } = await replicas({}, { maxRelayedRounds: 0 });
    const { state } = await firstRound(a);
    await expect(
      b.callTool('greet', {}, ctx({ principal: { id: 'alice' }, requestState: state })),
    ).rejects.toMatchObject({ message: expect.stringContaining('too many rounds') });
    expect(a.suspendedCalls).toBe(1);
  });

  it('ignores and reports malformed relayed messages sealed with its keys', async () => {
    const { a, relay, warnings } = await replicas();
    const { state } = await firstRound(a);
    const stranger = relay.peer();
    const to = `rondo-proxy-rounds:${state.holder}`;
    // A process of the gateway (it holds the keys) sending what no proxy sends.
    const seal = new RelaySeal();
    const send = (message: JsonRpcMessage) => stranger.forward(to, seal.seal(to, message));
    await send({ jsonrpc: '2.0', id: 'r1', method: 'rondo/proxy/round', params: { from: 7 } });
    await send({ jsonrpc: '2.0', method: 'rondo/proxy/progress', params: {} });
    await send({ jsonrpc: '2.0', id: 'r2', method: 'tools/call', params: {} });
    expect(warnings).toEqual([
      'upstream "asker": relay: ignored a malformed relayed round request',
      'upstream "asker": relay: ignored a malformed relayed rondo/proxy/progress',
      'upstream "asker": relay: ignored a relayed request tools/call',
    ]);
    expect(a.suspendedCalls).toBe(1);
  });

  it('refuses forged and replayed relay messages, and shows the relay no answer in clear', async () => {
    const { a, b, relay, warnings } = await replicas();
    const { key, state } = await firstRound(a);
    const onTheWire: { sessionId: string; message: JsonRpcMessage }[] = [];
    const listener = relay.peer();
    const stopListening = listener.receive((sessionId, message) =>
      onTheWire.push({ sessionId, message }),
    );
    const to = `rondo-proxy-rounds:${state.holder}`;
    // Someone with access to the relay alone: a round request in clear, and one sealed with other keys.
    const forged = {
      jsonrpc: '2.0',
      id: 'r1',
      method: 'rondo/proxy/round',
      params: {
        from: 'mallory',
        upstream: 'asker',
        method: 'tools/call',
        call: state.upstreamCall,
        principal: 'alice',
        answers: { [key]: { action: 'accept', content: { name: 'Mallory' } } },
      },
    } as const;
    await listener.forward(to, forged);
    const otherKeys = new RelaySeal([{ id: '0', secret: 'another-secret-of-at-least-32-bytes!!' }]);
    await listener.forward(to, otherKeys.seal(to, forged));
    expect(warnings).toEqual([
      'upstream "asker": relay: refused a relayed message (not a sealed message)',
      `upstream "asker": relay: refused a relayed message (it failed authentication: not sealed with this gateway's keys, or altered)`,
    ]);
    expect(a.suspendedCalls).toBe(1);

    // Alice's own retry through B crosses the relay sealed: the channel never shows her answer.
    const second = (await b.callTool(
      'greet',
      {},
      ctx({
        principal: { id: 'alice' },
        requestState: state,
        inputResponses: { [key]: { kind: 'accept', content: { name: 'Ada Lovelace' } } },
      }),
    )) as InputRequiredValue;
    expect(second.kind).toBe('input_required');
    stopListening();
    const crossed = onTheWire.filter(({ sessionId }) =>
      sessionId.startsWith('rondo-proxy-rounds:'),
    );
    expect(crossed.length).toBeGreaterThan(1);
    // A space is outside the boxes' base64url alphabet, so the name can't appear in one by chance.
    expect(JSON.stringify(crossed)).not.toContain('Ada Lovelace');
    expect(JSON.stringify(crossed)).not.toContain('sampling');

    // Sent again, the round request Alice's retry made is refused as a replay.
    const request = crossed.find(({ sessionId }) => sessionId === to)!;
    warnings.length = 0;
    await listener.forward(request.sessionId, request.message);
    expect(warnings).toEqual([
      'upstream "asker": relay: refused a relayed message (a replay of a message already received)',
    ]);
  });

  it('names the holder when this process shares no state with it', async () => {
    const { a } = await replicas();
    const { state } = await firstRound(a);
    const alone = proxy(memoryUpstream(legacyAsker(), 'alone'), {
      name: 'asker',
      era: '2025-11-25',
    });
    closeAfterTest(() => alone.close());
    await alone.tools();
    await expect(
      alone.callTool('greet', {}, ctx({ principal: { id: 'alice' }, requestState: state })),
    ).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining(
        `held by gateway process ${state.holder}, which this process shares no state with`,
      ),
    });
  });
});
