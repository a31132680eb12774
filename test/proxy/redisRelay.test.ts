import { createClient } from '@redis/client';
import type { HandlerContext, StateKey } from '@rondo/core';
import type { InputRequiredValue, JsonObject, JsonRpcMessage } from '@rondo/protocol';
import { createRedisState, type RedisState } from '@rondo/redis';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';
import { proxy, type ProxyProvider } from '../../packages/proxy/src/index.js';
import { RelaySeal } from '../../packages/proxy/src/relaySeal.js';
import { closeAfterTest, legacyAsker, memoryUpstream } from '../../packages/proxy/test/support.js';
import { testHandlerContext } from '@rondo/test-support/handlerContext';
import { startRedisServer, type RedisServer } from '@rondo/test-support/redisServer';

// Issue 38, done-when 6 (last clause) on the real thing: two gateway "replicas" of one legacy
// upstream share a real redis-server, as replicas do, and relay the rounds of a suspended call over
// its pub/sub channel. Someone with access to Redis alone (a subscriber and a publisher on the
// relay channel, no gateway keys) sees no answer in clear, and what they forge or replay is refused
// by the process holding the call; a retry by another principal gets the precise error; the owner's
// honest retries complete the call.

const KEYS: readonly StateKey[] = [{ id: 'k1', secret: 'the-replicas-shared-secret-of-32-bytes' }];
const ASKING = { elicitation: {}, sampling: {} } as JsonObject;

let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(async () => {
  await redis?.stop();
});

/** One relayed payload as Redis carries it (see `RedisSessionRelay`). */
interface RelayedPayload {
  readonly from: string;
  readonly sessionId: string;
  readonly message: JsonRpcMessage;
}

/**
 * Two replicas of the proxied upstream `asker`, each on its own Redis state (its own connection and
 * process id) under one prefix, and an eavesdropper on the relay channel that also publishes.
 */
async function replicasOnRedis() {
  const prefix = `relay-${randomUUID()}:`;
  const channel = `${prefix}relay`;
  const upstream = legacyAsker();
  const warnings: string[] = [];
  const states: RedisState[] = [];
  const replica = async (label: string): Promise<ProxyProvider> => {
    const state = await createRedisState({ url: redis.url, prefix });
    states.push(state);
    const provider = proxy(memoryUpstream(upstream, label), {
      name: 'asker',
      era: '2025-11-25',
      relay: state.relay,
      relayKeys: KEYS,
      onWarning: (line) => warnings.push(`${label}: ${line}`),
    });
    closeAfterTest(async () => {
      await provider.close();
      await state.close();
    });
    return provider;
  };
  const a = await replica('a');
  const b = await replica('b');
  await Promise.all([a.tools(), b.tools()]);

  const heard: RelayedPayload[] = [];
  const listener = createClient({ url: redis.url });
  const publisher = createClient({ url: redis.url });
  await Promise.all([listener.connect(), publisher.connect()]);
  await listener.subscribe(channel, (payload) => heard.push(JSON.parse(payload) as RelayedPayload));
  closeAfterTest(async () => {
    await Promise.all([listener.close(), publisher.close()]);
  });
  /** Publishes `message` for relay session `sessionId`, as a process of its own would. */
  const publish = async (sessionId: string, message: unknown): Promise<void> => {
    const payload = JSON.stringify({ from: 'eavesdropper', sessionId, message });
    await publisher.publish(channel, payload);
  };
  return { a, b, warnings, heard, publish };
}

function ctx(principal: string, overrides: Partial<HandlerContext> = {}): HandlerContext {
  return testHandlerContext({
    clientCapabilities: ASKING,
    principal: { id: principal },
    ...overrides,
  });
}

/** Replaces one character of the sealed part of a box (`id.nonce.sealed.tag`), keeping its shape. */
function tampered(message: JsonRpcMessage): JsonRpcMessage {
  const box = 'method' in message ? message.params?.box : undefined;
  if (typeof box !== 'string') throw new Error('not a sealed relay message');
  const [id, nonce, sealed, tag] = box.split('.') as [string, string, string, string];
  const flipped = `${sealed[0] === 'A' ? 'B' : 'A'}${sealed.slice(1)}`;
  return {
    jsonrpc: '2.0',
    method: 'rondo/proxy/sealed',
    params: { box: [id, nonce, flipped, tag].join('.') },
  };
}

const REFUSED = {
  clear: 'a: upstream "asker": relay: refused a relayed message (not a sealed message)',
  forged: `a: upstream "asker": relay: refused a relayed message (it failed authentication: not sealed with this gateway's keys, or altered)`,
  replayed:
    'a: upstream "asker": relay: refused a relayed message (a replay of a message already received)',
};

describe('relayed rounds over a real redis-server', { timeout: scaled(60_000) }, () => {
  it('refuse forged, altered and replayed messages and another principal, and run the honest ones', async () => {
    const { a, b, warnings, heard, publish } = await replicasOnRedis();
    const first = (await a.callTool('greet', {}, ctx('alice'))) as InputRequiredValue;
    expect(first.kind).toBe('input_required');
    const state = first.state as Record<string, string>;
    const key = first.requests[0]!.key;
    const holder = `rondo-proxy-rounds:${state.holder}`;

    // Forged on the channel: a round request in clear answering for Alice, and one sealed under
    // keys that are not the gateway's.
    const forgedRound = {
      jsonrpc: '2.0',
      id: 'forged-1',
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
    await publish(holder, forgedRound);
    const otherKeys = new RelaySeal([
      { id: 'k1', secret: 'not-the-gateway-secret-but-32-bytes!!' },
    ]);
    await publish(holder, otherKeys.seal(holder, forgedRound));
    await expect.poll(() => warnings).toEqual([REFUSED.clear, REFUSED.forged]);
    expect(a.suspendedCalls).toBe(1);

    // Another principal's retry with the state crosses Redis and is refused precisely.
    const answers = { [key]: { kind: 'accept', content: { name: 'Ada Lovelace' } } } as const;
    await expect(
      b.callTool('greet', {}, ctx('mallory', { requestState: state, inputResponses: answers })),
    ).rejects.toMatchObject({
      code: -32602,
      message: 'The suspended call belongs to another principal',
    });
    expect(a.suspendedCalls).toBe(1);

    // Alice's own retry through B is run by A: the upstream's next question comes back.
    heard.length = 0;
    const second = (await b.callTool(
      'greet',
      {},
      ctx('alice', { requestState: state, inputResponses: answers }),
    )) as InputRequiredValue;
    expect(second.requests[0]?.request).toMatchObject({ kind: 'sampling' });
    expect(second.state).toMatchObject({ holder: state.holder });
    // What crossed Redis: sealed boxes both ways, no answer or question in clear.
    const toHolder = heard.filter(({ sessionId }) => sessionId === holder);
    expect(toHolder.length).toBeGreaterThan(0);
    expect(
      heard.some(
        ({ sessionId }) => sessionId.startsWith('rondo-proxy-rounds:') && sessionId !== holder,
      ),
    ).toBe(true);
    expect(
      heard.every(({ message }) => 'method' in message && message.method === 'rondo/proxy/sealed'),
    ).toBe(true);
    // A space is outside the boxes' base64url alphabet, so the name can't appear in one by chance.
    expect(JSON.stringify(heard)).not.toContain('Ada Lovelace');
    expect(JSON.stringify(heard)).not.toContain('sampling');

    // The round request of that retry, sent again as it was and altered, is refused.
    const roundRequest = toHolder[0]!.message;
    warnings.length = 0;
    await publish(holder, roundRequest);
    await publish(holder, tampered(roundRequest));
    await expect.poll(() => warnings).toEqual([REFUSED.replayed, REFUSED.forged]);
    expect(a.suspendedCalls).toBe(1);

    // The call is where Alice left it: her answer to the model's question completes it.
    const done = await b.callTool(
      'greet',
      {},
      ctx('alice', {
        requestState: second.state,
        inputResponses: {
          [second.requests[0]!.key]: {
            kind: 'sampling_result',
            role: 'assistant',
            content: { type: 'text', text: 'Hi Ada Lovelace' },
            model: 'm',
          },
        },
      }),
    );
    expect(done).toEqual({
      kind: 'results',
      items: [{ kind: 'text', text: 'Ada Lovelace: {"type":"text","text":"Hi Ada Lovelace"}' }],
    });
    expect([a.suspendedCalls, b.relayedRounds]).toEqual([0, 0]);
  });
});
