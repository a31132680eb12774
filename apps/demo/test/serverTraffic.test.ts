import { LazyAbortController } from '@rondo/core/internal';
import { McpError } from '@rondo/protocol';
import type { McpCall } from '@rondo/core';
import { describe, expect, it } from 'vitest';
import { redactSecrets } from '../src/redact.js';
import { ServerTraffic, targetOf } from '../src/serverTraffic.js';

function call(overrides: Partial<McpCall> = {}): McpCall {
  const cancellation = overrides.cancellation ?? new LazyAbortController();
  return {
    method: 'tools/call',
    params: { name: 'brew_tea' },
    era: 'modern',
    revision: '2026-07-28',
    principal: undefined,
    id: 1,
    cancellation,
    signal: cancellation.signal,
    round: 1,
    headers: undefined,
    sessionId: undefined,
    client: undefined,
    address: undefined,
    stop: () => undefined,
    ...overrides,
  };
}

describe('ServerTraffic', () => {
  it('keeps the last `capacity` records, oldest first, and counts every call', async () => {
    const traffic = new ServerTraffic(3);
    for (let index = 0; index < 5; index += 1)
      await traffic.middleware(call({ id: index }), async () => undefined);
    expect(traffic.total).toBe(5);
    expect(traffic.records().map((record) => record.seq)).toEqual([3, 4, 5]);
    expect(traffic.records(4).map((record) => record.seq)).toEqual([5]);
  });

  it('records the error code the client gets and passes the failure on unchanged', async () => {
    const traffic = new ServerTraffic();
    const refusal = new McpError(-32000, 'slow down');
    await expect(traffic.middleware(call(), () => Promise.reject(refusal))).rejects.toBe(refusal);
    const crash = new Error('boom');
    await expect(traffic.middleware(call(), () => Promise.reject(crash))).rejects.toBe(crash);
    expect(
      traffic.records().map(({ outcome, code, message }) => ({ outcome, code, message })),
    ).toEqual([
      { outcome: 'error', code: -32000, message: 'slow down' },
      { outcome: 'error', code: -32603, message: 'boom' },
    ]);
  });

  it('records a cancelled call as cancelled, and a round result by its kind', async () => {
    const traffic = new ServerTraffic();
    const cancelled = new LazyAbortController();
    cancelled.abort();
    await expect(
      traffic.middleware(call({ cancellation: cancelled }), () => Promise.reject(new Error('x'))),
    ).rejects.toThrow('x');
    await traffic.middleware(call({ round: 2 }), async () => ({
      kind: 'input_required',
      requests: [],
      state: undefined,
    }));
    const [first, second] = traffic.records();
    expect(first).toMatchObject({ outcome: 'cancelled' });
    expect(first).not.toHaveProperty('code');
    expect(second).toMatchObject({ outcome: 'ok', round: 2, result: 'input_required' });
  });

  it('cuts long names, and a failing listener never fails the call', async () => {
    const traffic = new ServerTraffic();
    const seen: number[] = [];
    traffic.subscribe(() => {
      throw new Error('viewer gone');
    });
    traffic.subscribe((record) => seen.push(record.seq));
    await traffic.middleware(call({ params: { name: 'x'.repeat(10_000) } }), async () => undefined);
    await traffic.middleware(call(), async () => undefined);
    expect(seen).toEqual([1, 2]);
    expect(traffic.records()[0]!.target!.length).toBeLessThanOrEqual(160);
  });

  it('names what a call is about', () => {
    expect(targetOf({ method: 'resources/read', params: { uri: 'demo://clock' } })).toBe(
      'demo://clock',
    );
    expect(
      targetOf({
        method: 'completion/complete',
        params: { ref: { type: 'ref/prompt', name: 'haiku' } },
      }),
    ).toBe('haiku');
    expect(targetOf({ method: 'tools/list', params: {} })).toBeUndefined();
  });
});

describe('redactSecrets', () => {
  it.each([
    [
      'demo://notes?api_key=abc123&page=2#token=xyz',
      'demo://notes?api_key=[redacted]&page=[redacted]#token=[redacted]',
    ],
    ['https://ann:hunter2@example.test/x', 'https://[redacted]@example.test/x'],
    ['rejected Bearer abc.def-ghi', 'rejected Bearer [redacted]'],
    ['bad password: hunter2, retry', 'bad password: [redacted], retry'],
    ['jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl here', 'jwt [redacted] here'],
    ['key 0123456789abcdef0123456789abcdef01 used', 'key [redacted] used'],
    ['send_postcard', 'send_postcard'],
    ['demo://birds/robin', 'demo://birds/robin'],
  ])('shows %j as %j', (text, shown) => {
    expect(redactSecrets(text)).toBe(shown);
  });

  it('is applied to what the traffic view keeps of a call', async () => {
    const traffic = new ServerTraffic();
    const uri = 'demo://notes?api_key=sk-live-0123456789';
    await traffic
      .middleware(call({ method: 'resources/read', params: { uri } }), () =>
        Promise.reject(new Error(`no resource ${uri}`)),
      )
      .catch(() => undefined);
    const [record] = traffic.records();
    expect(JSON.stringify(record)).not.toContain('sk-live');
    expect(record).toMatchObject({ target: 'demo://notes?api_key=[redacted]' });
  });
});
