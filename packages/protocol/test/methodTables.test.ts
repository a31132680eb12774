import { describe, expect, it } from 'vitest';
import { MetaKey, type MethodTable } from '../src/index.js';
import {
  LegacyCallToolResultSchema,
  describeZodError,
  legacyNotificationParams,
  legacyRequestParams,
  legacyResults,
  modernNotificationParams,
  modernRequestParams,
  modernResults,
  parseRequestParams,
} from '../src/internal.js';

const meta = { [MetaKey.protocolVersion]: '2026-07-28', [MetaKey.clientCapabilities]: {} };

const tables: [string, MethodTable][] = [
  ['legacyRequestParams', legacyRequestParams],
  ['modernRequestParams', modernRequestParams],
  ['legacyNotificationParams', legacyNotificationParams],
  ['modernNotificationParams', modernNotificationParams],
  ['legacyResults', legacyResults],
  ['modernResults', modernResults],
];

describe('method tables', () => {
  it.each(tables)('%s has no entry for names inherited from Object', (_name, table) => {
    for (const method of ['toString', 'constructor', '__proto__', 'hasOwnProperty']) {
      expect(table[method]).toBeUndefined();
    }
    expect(Object.isFrozen(table)).toBe(true);
  });

  it('gives the modern era no handshake, ping, log level or resource subscriptions', () => {
    const removed = ['initialize', 'ping', 'logging/setLevel', 'resources/subscribe'];
    for (const method of removed) expect(modernRequestParams[method]).toBeUndefined();
    expect(Object.keys(modernNotificationParams)).toEqual(['notifications/cancelled']);
  });

  it('gives the legacy era no discovery and no listen streams', () => {
    expect(legacyRequestParams['server/discover']).toBeUndefined();
    expect(legacyRequestParams['subscriptions/listen']).toBeUndefined();
  });

  it('has a result schema for every request method of each era', () => {
    expect(Object.keys(legacyResults).sort()).toEqual(Object.keys(legacyRequestParams).sort());
    expect(Object.keys(modernResults).sort()).toEqual(Object.keys(modernRequestParams).sort());
  });
});

describe('parseRequestParams', () => {
  const callTool = modernRequestParams['tools/call']!;

  it('returns the params, unknown members included', () => {
    const params = { _meta: meta, name: 'weather', extra: true };
    expect(parseRequestParams(callTool, params)).toEqual({ ok: true, value: params });
  });

  it.each([
    ['a wrongly typed member', { _meta: meta, name: 3 }, 'params.name: expected string'],
    ['a missing member', { _meta: meta }, 'params.name: expected string'],
    ['a missing _meta', { name: 'x' }, 'params._meta: expected object'],
    [
      'a missing reserved _meta key',
      { _meta: { [MetaKey.clientCapabilities]: {} }, name: 'x' },
      'params._meta["io.modelcontextprotocol/protocolVersion"]: expected string',
    ],
    [
      'a wrong answer in a retry',
      { _meta: meta, name: 'x', inputResponses: { who: { action: 'maybe' } } },
      'params.inputResponses.who.action: expected one of "accept", "decline", "cancel"',
    ],
    [
      'a wrongly typed request state',
      { _meta: meta, name: 'x', requestState: { step: 1 } },
      'params.requestState: expected string',
    ],
    ['params that are not an object', ['x'], 'params: expected object'],
  ])('names the member at fault for %s', (_what, params, message) => {
    expect(parseRequestParams(callTool, params)).toEqual({ ok: false, message });
  });

  it('checks absent params as an empty object', () => {
    expect(parseRequestParams(legacyRequestParams['tools/list']!, undefined)).toEqual({
      ok: true,
      value: {},
    });
    expect(parseRequestParams(legacyRequestParams['tools/call']!, undefined)).toEqual({
      ok: false,
      message: 'params.name: expected string',
    });
  });

  it('names list indexes and discriminators', () => {
    const complete = legacyRequestParams['completion/complete']!;
    expect(
      parseRequestParams(complete, {
        ref: { type: 'ref/tool' },
        argument: { name: 'a', value: 'b' },
      }),
    ).toEqual({
      ok: false,
      message: 'params.ref.type: expected one of "ref/prompt", "ref/resource"',
    });
    const listen = modernRequestParams['subscriptions/listen']!;
    expect(
      parseRequestParams(listen, {
        _meta: meta,
        notifications: { resourceSubscriptions: ['a', 1] },
      }),
    ).toEqual({
      ok: false,
      message: 'params.notifications.resourceSubscriptions[1]: expected string',
    });
  });
});

describe('result schemas', () => {
  it('refuse modern members in a legacy result', () => {
    const parsed = LegacyCallToolResultSchema.safeParse({ content: [], resultType: 'complete' });
    expect(parsed.success).toBe(false);
    expect(parsed.error && describeZodError(parsed.error, 'result')).toBe(
      'result.resultType: resultType belongs to 2026-07-28; a legacy result never carries it',
    );
  });

  it('require an input_required result to ask for something or carry a state', () => {
    const schema = modernResults['tools/call']!;
    expect(schema.safeParse({ resultType: 'input_required' }).success).toBe(false);
    expect(schema.safeParse({ resultType: 'input_required', requestState: 's' }).success).toBe(
      true,
    );
    expect(schema.safeParse({ resultType: 'input_required', inputRequests: {} }).success).toBe(
      false,
    );
  });

  it('require the cache fields of a modern list result', () => {
    const schema = modernResults['tools/list']!;
    expect(schema.safeParse({ resultType: 'complete', tools: [] }).success).toBe(false);
    const cached = { resultType: 'complete', tools: [], ttlMs: 0, cacheScope: 'public' };
    expect(schema.safeParse(cached).success).toBe(true);
  });
});
