import { afterEach, describe, expect, it } from 'vitest';
import { formElicitation, inputRequest, inputRequired, text } from '@rondo/server';
import { RATE_LIMITED, addressOf, callerKey, rateLimit } from '../src/index.js';
import { refusal } from '@rondo/test-support/refusal';
import { startPolicyServer, type PolicyServer } from './support.js';

let running: PolicyServer | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

const ERAS = ['2026-07-28', '2025-11-25'] as const;

describe.each(ERAS)('rateLimit (%s)', (era) => {
  it('admits limit calls per principal, then refuses with -32000 and retryAfterMs', async () => {
    running = await startPolicyServer((server) =>
      server
        .use(rateLimit({ limit: 3, windowMs: 60_000, methods: ['tools/call'] }))
        .tool('echo', {}, () => text('ok')),
    );
    const ada = await running.client('ada', era);
    const bob = await running.client('bob', era);
    for (let index = 0; index < 3; index += 1) await ada.callTool('echo');
    const refused = await refusal(ada.callTool('echo'));
    expect(refused.code).toBe(RATE_LIMITED);
    expect(refused.message).toBe('Rate limit exceeded: 3 calls per 60000 ms');
    expect(refused.data.retryAfterMs).toBeGreaterThan(19_000);
    expect(refused.data.retryAfterMs).toBeLessThanOrEqual(20_000);
    // Another principal has its own counter; lists are not counted.
    expect((await bob.callTool('echo')).content[0]).toMatchObject({ text: 'ok' });
    expect((await ada.listTools()).tools).toHaveLength(1);
  });

  it('counts a multi-round call once: answering the server is free', async () => {
    running = await startPolicyServer((server) =>
      server
        .use(rateLimit({ limit: 1, windowMs: 60_000, methods: ['tools/call'] }))
        .tool('ask', {}, (_args, ctx) => {
          if (ctx.inputResponses.name?.kind === 'accept') return text('thanks');
          const form = { type: 'object', properties: { name: { type: 'string' } } };
          return inputRequired([inputRequest('name', formElicitation('Name?', form))]);
        }),
    );
    const { Client, httpTransport } = await import('@rondo/client');
    const client = new Client({
      era,
      transport: httpTransport({ url: running.url, headers: { authorization: 'Bearer eve' } }),
      handlers: { elicitation: () => ({ action: 'accept', content: { name: 'Eve' } }) },
    });
    try {
      await client.connect();
      expect((await client.callTool('ask')).content[0]).toMatchObject({ text: 'thanks' });
      expect((await refusal(client.callTool('ask'))).code).toBe(RATE_LIMITED);
    } finally {
      await client.close();
    }
  });

  it('per tool: each tool its own counter', async () => {
    running = await startPolicyServer((server) =>
      server
        .use(rateLimit({ limit: 1, windowMs: 60_000, per: 'tool', methods: ['tools/call'] }))
        .tool('a', {}, () => text('a'))
        .tool('b', {}, () => text('b')),
    );
    const client = await running.client('ada', era);
    await client.callTool('a');
    await client.callTool('b');
    expect((await refusal(client.callTool('a'))).code).toBe(RATE_LIMITED);
  });
});

describe('rateLimit over HTTP', () => {
  it('answers a refusal with 429 and Retry-After in whole seconds', async () => {
    running = await startPolicyServer((server) =>
      server
        .use(rateLimit({ limit: 1, windowMs: 90_000, algorithm: 'sliding-window' }))
        .tool('echo', {}, () => text('ok')),
    );
    const post = (id: number) =>
      fetch(running!.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          authorization: 'Bearer ada',
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': 'tools/call',
          'mcp-name': 'echo',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id,
          method: 'tools/call',
          params: {
            name: 'echo',
            arguments: {},
            _meta: {
              'io.modelcontextprotocol/protocolVersion': '2026-07-28',
              'io.modelcontextprotocol/clientInfo': { name: 't', version: '1' },
              'io.modelcontextprotocol/clientCapabilities': {},
            },
          },
        }),
      });
    expect((await post(1)).status).toBe(200);
    const refused = await post(2);
    expect(refused.status).toBe(429);
    const seconds = Number(refused.headers.get('retry-after'));
    expect(seconds).toBeGreaterThanOrEqual(90);
    expect(seconds).toBeLessThanOrEqual(180);
    expect(await refused.json()).toMatchObject({ id: 2, error: { code: RATE_LIMITED } });
  });
});

describe('rateLimit and replayed retries (issue 39)', () => {
  /** POSTs a 2026-07-28 `tools/call` of `ask` as ada; `retry` makes it a retry of a round. */
  const callAsk = async (id: number, retry?: { requestState: string }) => {
    const response = await fetch(running!.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: 'Bearer ada',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/call',
        'mcp-name': 'ask',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: {
          name: 'ask',
          arguments: {},
          ...(retry && {
            requestState: retry.requestState,
            inputResponses: { name: { action: 'accept', content: { name: 'Eve' } } },
          }),
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientInfo': { name: 't', version: '1' },
            'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
          },
        },
      }),
    });
    return (await response.json()) as {
      result?: { resultType: string; requestState?: string };
      error?: { code: number };
    };
  };

  it('counts a retry that brings back a requestState already answered: the handler runs at most limit times for 20 replays', async () => {
    let answeredRuns = 0;
    running = await startPolicyServer((server) =>
      server
        .use(rateLimit({ limit: 3, windowMs: 60_000, methods: ['tools/call'] }))
        .tool('ask', {}, (_args, ctx) => {
          if (ctx.inputResponses.name?.kind === 'accept') {
            answeredRuns += 1;
            return text('thanks');
          }
          const form = { type: 'object', properties: { name: { type: 'string' } } };
          return inputRequired([inputRequest('name', formElicitation('Name?', form))]);
        }),
    );
    const first = await callAsk(1);
    expect(first.result?.resultType).toBe('input_required');
    const requestState = first.result!.requestState!;
    const replies = [];
    for (let index = 0; index < 20; index += 1)
      replies.push(await callAsk(100 + index, { requestState }));
    // The first retry answers the server's question (free); every replay after it is a call:
    // two fit in the limit of 3 beside the first round, the other seventeen are refused.
    expect(replies.filter((reply) => reply.result?.resultType === 'complete')).toHaveLength(3);
    expect(replies.filter((reply) => reply.error?.code === RATE_LIMITED)).toHaveLength(17);
    expect(answeredRuns).toBe(3);
  });

  it('still lets a fresh retry answer the server for free when the caller is at its limit', async () => {
    running = await startPolicyServer((server) =>
      server
        .use(rateLimit({ limit: 1, windowMs: 60_000, methods: ['tools/call'] }))
        .tool('ask', {}, (_args, ctx) =>
          ctx.inputResponses.name?.kind === 'accept'
            ? text('thanks')
            : inputRequired([inputRequest('name', formElicitation('Name?', { type: 'object' }))]),
        ),
    );
    const first = await callAsk(1);
    const answer = await callAsk(2, { requestState: first.result!.requestState! });
    expect(answer.result?.resultType).toBe('complete');
    expect((await callAsk(3, { requestState: first.result!.requestState! })).error?.code).toBe(
      RATE_LIMITED,
    );
  });
});

describe('who is counted', () => {
  const call = (overrides: object) =>
    ({
      method: 'tools/call',
      params: {},
      principal: undefined,
      headers: undefined,
      client: undefined,
      address: '10.0.0.9',
      ...overrides,
    }) as never;

  it('keys by principal, client id, address or a function; anonymous callers by their client key', () => {
    const principal = { id: 'ada', clientId: 'cli-1' };
    expect(callerKey(call({ principal }), 'principal', undefined)).toBe('principal:ada');
    expect(callerKey(call({ principal }), 'client', undefined)).toBe('client:cli-1');
    expect(callerKey(call({ principal: { id: 'bob' } }), 'client', undefined)).toBe(
      'principal:bob',
    );
    expect(callerKey(call({ client: 'address:1.2.3.4' }), 'principal', undefined)).toBe(
      'anon:address:1.2.3.4',
    );
    expect(callerKey(call({ principal }), 'ip', undefined)).toBe('ip:10.0.0.9');
    expect(callerKey(call({}), () => 'tenant-7', undefined)).toBe('k:tenant-7');
  });

  it('behind proxies reads the header entry its own proxies vouch for, never one a client wrote', () => {
    const headers = { 'x-forwarded-for': 'forged, 203.0.113.7, 10.0.0.2' };
    expect(addressOf(call({ headers }), undefined)).toBe('10.0.0.9');
    expect(addressOf(call({ headers }), { hops: 1 })).toBe('10.0.0.2');
    expect(addressOf(call({ headers }), { hops: 2 })).toBe('203.0.113.7');
    expect(addressOf(call({ headers: { 'x-real': '198.51.100.1' } }), { header: 'X-Real' })).toBe(
      '198.51.100.1',
    );
    // Fewer entries than proxies: the request did not come through them all.
    expect(addressOf(call({ headers }), { hops: 5 })).toBe('10.0.0.9');
  });
});
