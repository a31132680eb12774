import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MetaKey } from '../src/index.js';
import { legacyRequestParams, modernRequestParams, parseRequestParams } from '../src/internal.js';
import { legacyQuickChecks, modernQuickChecks } from '../src/schemas/quickChecks.js';

const modernMeta = {
  [MetaKey.protocolVersion]: '2026-07-28',
  [MetaKey.clientCapabilities]: {
    elicitation: { form: {}, url: {} },
    sampling: { context: {}, tools: {} },
    roots: { listChanged: true },
    experimental: { x: {} },
    extensions: { y: {} },
    tasks: {},
  },
  [MetaKey.clientInfo]: { name: 'client', version: '1.0.0', title: 'Client' },
  [MetaKey.logLevel]: 'info',
  progressToken: 7,
};

/** Well-formed params of every method with a quick check. */
const modernSamples: Record<string, Record<string, unknown>> = {
  'server/discover': { _meta: modernMeta },
  'tools/list': { _meta: modernMeta, cursor: 'abc' },
  'prompts/list': { _meta: modernMeta },
  'resources/list': { _meta: modernMeta },
  'resources/templates/list': { _meta: modernMeta },
  'tools/call': { _meta: modernMeta, name: 'echo', arguments: { text: 'hi', n: [1] } },
  'prompts/get': { _meta: modernMeta, name: 'greet', arguments: { who: 'you' } },
  'resources/read': { _meta: modernMeta, uri: 'file:///a', requestState: 'sealed' },
};

/** Retries carrying elicitation answers, which the quick checks also recognise. */
const answers = {
  q1: { action: 'accept', content: { ok: true, n: 1.5, s: 'x', list: ['a', 'b'] } },
  q2: { action: 'decline', _meta: {} },
};
const modernRetries: Record<string, Record<string, unknown>> = {
  'tools/call': { ...modernSamples['tools/call'], inputResponses: answers, requestState: 's' },
  'prompts/get': { ...modernSamples['prompts/get'], inputResponses: answers, requestState: 's' },
  'resources/read': { ...modernSamples['resources/read'], inputResponses: answers },
};

const legacySamples: Record<string, Record<string, unknown>> = {
  ping: {},
  'tools/list': { cursor: 'abc', _meta: { progressToken: 'p' } },
  'prompts/list': {},
  'resources/list': {},
  'resources/templates/list': {},
  'tools/call': { name: 'echo', arguments: { text: 'hi' } },
  'prompts/get': { name: 'greet', arguments: { who: 'you' } },
  'resources/read': { uri: 'file:///a' },
  'resources/subscribe': { uri: 'file:///a' },
  'resources/unsubscribe': { uri: 'file:///a' },
};

/** Every path into a value (objects and arrays), so a mutation can reach any depth. */
function pathsOf(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (typeof value !== 'object' || value === null) return [prefix];
  const keys = Array.isArray(value) ? value.map((_, i) => i) : Object.keys(value);
  return [prefix, ...keys.flatMap((key) => pathsOf((value as never)[key], [...prefix, key]))];
}

/** A copy of `value` with the member at `path` replaced (or deleted when `replacement` is absent). */
function mutate(value: unknown, path: (string | number)[], replacement: { v?: unknown }): unknown {
  if (path.length === 0) return 'v' in replacement ? replacement.v : undefined;
  const copy = structuredClone(value) as Record<string | number, unknown>;
  let cursor = copy;
  for (const key of path.slice(0, -1)) cursor = cursor[key] as Record<string | number, unknown>;
  const last = path[path.length - 1] as string | number;
  if ('v' in replacement) cursor[last] = replacement.v;
  else delete cursor[last];
  return copy;
}

const anyJson = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(1.5, 2 ** 60, -1, '', 'info', 'loud', null, [], {}),
);

function mutations(sample: Record<string, unknown>) {
  const paths = pathsOf(sample);
  return fc
    .tuple(
      fc.constantFrom(...paths),
      fc.oneof(
        anyJson.map((v) => ({ v })),
        fc.constant({}),
      ),
      fc.dictionary(
        fc.constantFrom(
          'name',
          'uri',
          'cursor',
          'task',
          'inputResponses',
          'requestState',
          'arguments',
          '_meta',
        ),
        anyJson,
        { maxKeys: 2 },
      ),
    )
    .map(([path, replacement, extra]) => {
      const changed = mutate(sample, path, replacement);
      return typeof changed === 'object' && changed !== null && !Array.isArray(changed)
        ? { ...changed, ...extra }
        : changed;
    });
}

describe.each([
  ['modern', modernQuickChecks, modernRequestParams, modernSamples],
  ['legacy', legacyQuickChecks, legacyRequestParams, legacySamples],
] as const)('%s quick checks of request params', (_era, checks, table, samples) => {
  it('cover exactly the sampled methods, and accept their well-formed params', () => {
    expect(Object.keys(checks).sort()).toEqual(Object.keys(samples).sort());
    for (const [method, params] of Object.entries(samples)) {
      expect(checks[method]?.(params), method).toBe(true);
      expect(table[method]?.safeParse(params).success, method).toBe(true);
    }
  });

  it('accept retries whose answers are elicitation results', () => {
    if (checks !== modernQuickChecks) return;
    for (const [method, params] of Object.entries(modernRetries)) {
      expect(checks[method]?.(params), method).toBe(true);
      expect(table[method]?.safeParse(params).success, method).toBe(true);
    }
  });

  it('never accept params their method’s schema refuses', () => {
    const retries = checks === modernQuickChecks ? Object.entries(modernRetries) : [];
    for (const [method, sample] of [...Object.entries(samples), ...retries]) {
      const check = checks[method]!;
      const schema = table[method]!;
      fc.assert(
        fc.property(mutations(sample), (params) => {
          if (typeof params !== 'object' || params === null || Array.isArray(params)) return;
          if (check(params as Record<string, unknown>)) {
            expect(schema.safeParse(params).success).toBe(true);
          }
        }),
        { numRuns: 300 },
      );
    }
  });

  it('leave the error message to the schema', () => {
    for (const method of Object.keys(samples)) {
      const outcome = parseRequestParams(table[method]!, {
        name: 42,
        uri: 42,
        cursor: 42,
        _meta: 42,
      });
      expect(outcome.ok, method).toBe(false);
      if (!outcome.ok) expect(outcome.message).toMatch(/^params\./);
    }
  });
});

describe("list-form inputResponses (Logtalk's mcp_server, issue 39)", () => {
  const schema = modernRequestParams['tools/call']!;
  const retry = (inputResponses: unknown) => ({
    _meta: modernMeta,
    name: 'ask',
    requestState: 'sealed',
    inputResponses,
  });

  it('normalises a list of answers naming their keys to the map', () => {
    const parsed = parseRequestParams(
      schema,
      retry([
        { key: 'name', action: 'accept', content: { name: 'Alice' } },
        { key: 'sure', action: 'decline' },
      ]),
    );
    expect(parsed.ok).toBe(true);
    const value = (parsed as { value: { inputResponses: Record<string, unknown> } }).value;
    expect(value.inputResponses).toEqual({
      name: { action: 'accept', content: { name: 'Alice' } },
      sure: { action: 'decline' },
    });
  });

  it('refuses a list with a repeated key, an entry without one, or an entry that is no answer', () => {
    for (const list of [
      [
        { key: 'a', action: 'decline' },
        { key: 'a', action: 'cancel' },
      ],
      [{ action: 'decline' }],
      [{ key: 'a', action: 'maybe' }],
      ['a'],
    ])
      expect(parseRequestParams(schema, retry(list)).ok, JSON.stringify(list)).toBe(false);
  });
});
