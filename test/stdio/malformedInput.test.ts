import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';
import { DEFAULT_MAX_LINE_BYTES } from '@rondo/transport-stdio';
import { RawFixture, modernMeta } from './support/fixture.js';
import { WireValidator } from '@rondo/test-support/specSchemas';

// Issue 3, done-when 5: each kind of malformed input gets its exact error, and the same process
// keeps serving: a good request right after each one is answered.

type Expected = { id: string | number | null; code: number; data?: object; message?: RegExp };
type Case = [label: string, line: string | Buffer | (() => string), expected: Expected];

const meta = modernMeta();
const request = (id: unknown, method: string, params: object = { _meta: meta }) =>
  JSON.stringify({ jsonrpc: '2.0', id, method, params });
const call = (id: number, params: object) => request(id, 'tools/call', { _meta: meta, ...params });
const supported = ['2026-07-28', '2025-11-25', '2025-06-18'];

const cases: Case[] = [
  ['bad JSON', '{"jsonrpc":"2.0","id":1,"method":', { id: null, code: -32700 }],
  ['not JSON at all', 'hello world', { id: null, code: -32700 }],
  [
    'bytes that are not UTF-8',
    Buffer.from([0x7b, 0xc3, 0x28, 0x7d, 0x0a]),
    { id: null, code: -32700 },
  ],
  [
    'a batch (array)',
    `[${request(2, 'tools/list')}]`,
    { id: null, code: -32600, message: /Batch/ },
  ],
  ['an empty batch', '[]', { id: null, code: -32600 }],
  ['a bare number', '42', { id: null, code: -32600 }],
  [
    'jsonrpc "1.0"',
    JSON.stringify({ jsonrpc: '1.0', id: 3, method: 'tools/list' }),
    { id: 3, code: -32600 },
  ],
  ['no jsonrpc member', JSON.stringify({ id: 4, method: 'tools/list' }), { id: 4, code: -32600 }],
  ['a null id', request(null, 'tools/list'), { id: null, code: -32600 }],
  ['a fractional id', request(1.5, 'tools/list'), { id: null, code: -32600 }],
  ['an object id', request({ a: 1 }, 'tools/list'), { id: null, code: -32600 }],
  ['a boolean id', request(true, 'tools/list'), { id: null, code: -32600 }],
  [
    'a numeric method',
    JSON.stringify({ jsonrpc: '2.0', id: 5, method: 42 }),
    { id: 5, code: -32600 },
  ],
  [
    'array params',
    JSON.stringify({ jsonrpc: '2.0', id: 6, method: 'tools/list', params: [1] }),
    { id: 6, code: -32600 },
  ],
  [
    'missing clientCapabilities in _meta',
    request(7, 'tools/list', {
      _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' },
    }),
    { id: 7, code: -32602, data: { invalidMeta: 'io.modelcontextprotocol/clientCapabilities' } },
  ],
  [
    'clientCapabilities that is not an object',
    request(8, 'tools/list', {
      _meta: { ...meta, 'io.modelcontextprotocol/clientCapabilities': 'all' },
    }),
    { id: 8, code: -32602, data: { invalidMeta: 'io.modelcontextprotocol/clientCapabilities' } },
  ],
  [
    'a protocolVersion that is not a string',
    request(9, 'tools/list', {
      _meta: { ...meta, 'io.modelcontextprotocol/protocolVersion': 2026 },
    }),
    { id: 9, code: -32602, data: { invalidMeta: 'io.modelcontextprotocol/protocolVersion' } },
  ],
  [
    'an unsupported protocol version',
    request(10, 'tools/list', {
      _meta: { ...meta, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' },
    }),
    { id: 10, code: -32022, data: { supported, requested: '2099-01-01' } },
  ],
  [
    'an unknown log level',
    call(11, {
      name: 'test_simple_text',
      _meta: { ...meta, 'io.modelcontextprotocol/logLevel': 'loud' },
    }),
    { id: 11, code: -32602, data: { invalidMeta: 'io.modelcontextprotocol/logLevel' } },
  ],
  ['an unknown method', request(12, 'unknown/method'), { id: 12, code: -32601 }],
  [
    'initialize with modern _meta',
    request(13, 'initialize', {
      _meta: meta,
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'x', version: '1' },
    }),
    { id: 13, code: -32601 },
  ],
  ['ping with modern _meta', request(14, 'ping'), { id: 14, code: -32601 }],
  [
    'logging/setLevel with modern _meta',
    request(15, 'logging/setLevel', { _meta: meta, level: 'debug' }),
    { id: 15, code: -32601 },
  ],
  [
    'resources/subscribe with modern _meta',
    request(16, 'resources/subscribe', { _meta: meta, uri: 'test://watched-resource' }),
    { id: 16, code: -32601 },
  ],
  [
    'an unknown tool',
    call(17, { name: 'no_such_tool' }),
    { id: 17, code: -32602, data: { name: 'no_such_tool' } },
  ],
  ['tools/call without a name', call(18, {}), { id: 18, code: -32602 }],
  [
    'tool arguments that are an array',
    call(19, { name: 'test_simple_text', arguments: [] }),
    { id: 19, code: -32602 },
  ],
  [
    'an unknown resource',
    request(20, 'resources/read', { _meta: meta, uri: 'test://nope' }),
    { id: 20, code: -32602, data: { uri: 'test://nope' } },
  ],
  [
    'a prompt missing a required argument',
    request(21, 'prompts/get', {
      _meta: meta,
      name: 'test_prompt_with_arguments',
      arguments: { arg1: 'a' },
    }),
    { id: 21, code: -32602 },
  ],
  [
    'a bogus cursor',
    request(22, 'tools/list', { _meta: meta, cursor: 'bogus' }),
    { id: 22, code: -32602 },
  ],
  [
    'a forged requestState',
    call(23, {
      name: 'test_input_required_result_request_state',
      requestState: 'forged',
      inputResponses: { confirm: { action: 'accept', content: { ok: true } } },
    }),
    { id: 23, code: -32602, message: /requestState/ },
  ],
  [
    'an input response that is not an object',
    call(24, {
      name: 'test_input_required_result_elicitation',
      inputResponses: { user_name: 12345 },
    }),
    { id: 24, code: -32602 },
  ],
  [
    'a call needing an undeclared capability',
    call(25, { name: 'test_missing_capability', arguments: {} }),
    { id: 25, code: -32021, data: { requiredCapabilities: { sampling: {} } } },
  ],
  [
    // Before initialize there is no legacy session: the modern era answers, naming the missing _meta.
    'a request with neither _meta nor a session',
    JSON.stringify({ jsonrpc: '2.0', id: 26, method: 'tools/list' }),
    { id: 26, code: -32602, data: { invalidMeta: '_meta' } },
  ],
  [
    'a line over the 4 MiB limit',
    () =>
      call(27, {
        name: 'test_simple_text',
        arguments: { pad: 'x'.repeat(DEFAULT_MAX_LINE_BYTES) },
      }),
    { id: null, code: -32600, data: { maxLineBytes: DEFAULT_MAX_LINE_BYTES } },
  ],
];

describe('malformed input on stdio', { timeout: scaled(30_000) }, () => {
  let fixture: RawFixture;
  let goodId = 1000;

  beforeAll(async () => {
    fixture = new RawFixture();
    const ready = await fixture.request('warm-up', 'server/discover', { _meta: meta });
    expect(ready.result?.resultType).toBe('complete');
  }, scaled(30_000));

  afterAll(async () => {
    expect(await fixture.end()).toBe(0);
    fixture.kill();
    const validator = WireValidator.load('2026-07-28');
    if (validator) {
      expect(validator.problems(fixture.lines, fixture.sent)).toEqual([]);
    }
  }, scaled(30_000));

  it('has at least 20 kinds of malformed input', () => {
    expect(cases.length).toBeGreaterThanOrEqual(20);
  });

  it.each(cases)(
    'answers %s with its exact error, then keeps serving',
    async (_label, line, expected) => {
      const from = fixture.lines.length;
      fixture.send(typeof line === 'function' ? line() : line);
      const answer = await fixture.waitFor(() => true, 10_000, from);
      expect(answer).toMatchObject({
        jsonrpc: '2.0',
        id: expected.id,
        error: { code: expected.code },
      });
      if (expected.data) expect(answer.error?.data).toMatchObject(expected.data);
      if (expected.message) expect(answer.error?.message).toMatch(expected.message);
      const id = goodId++;
      const good = await fixture.request(id, 'tools/call', {
        _meta: meta,
        name: 'test_simple_text',
      });
      expect(good.result?.content).toEqual([
        { type: 'text', text: 'This is a simple text response for testing.' },
      ]);
    },
  );

  it('answers a malformed elicitation answer to a real round with -32602', async () => {
    const caps = modernMeta({ elicitation: {} });
    const params = { _meta: caps, name: 'test_input_required_result_elicitation', arguments: {} };
    const round = await fixture.request('round-1', 'tools/call', params);
    expect(round.result?.resultType).toBe('input_required');
    const retry = await fixture.request('round-2', 'tools/call', {
      ...params,
      requestState: round.result?.requestState,
      inputResponses: { user_name: { action: 'accept', content: { name: 42 } } },
    });
    expect(retry.error?.code).toBe(-32602);
  });

  it('writes nothing for a response to an unknown id or an unknown notification', async () => {
    const from = fixture.lines.length;
    fixture.send({ jsonrpc: '2.0', id: 'never-sent', result: {} });
    fixture.send({ jsonrpc: '2.0', method: 'notifications/whatever' });
    const good = await fixture.request('after-silence', 'tools/call', {
      _meta: meta,
      name: 'test_simple_text',
    });
    expect(good.result).toBeDefined();
    expect(fixture.lines.slice(from)).toHaveLength(1);
  });
});
