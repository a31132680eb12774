import fc from 'fast-check';
import { MetaKey } from '@rondo/protocol';
import { legacyResults, modernResults } from '@rondo/protocol/internal';
import { describe, expect, it } from 'vitest';
import { legacyResultChecks, modernResultChecks } from '../src/quickResults.js';

// The quick result checks skip zod on the client's hot path; each may only accept what its
// method's schema accepts. Well-formed samples pass both; random mutations of them never pass the
// quick check unless the schema passes them too.

const modernSample = {
  content: [{ type: 'text', text: 'hello', _meta: {} }],
  structuredContent: { text: 'hello', n: [1, 2.5, null, true, { deep: 'x' }] },
  isError: false,
  resultType: 'complete',
  _meta: { [MetaKey.serverInfo]: { name: 'server', version: '1.0.0', title: 'Server' } },
};
const legacySample = {
  content: [{ type: 'text', text: 'hello' }],
  structuredContent: { text: 'hello' },
  _meta: { anything: 1 },
};

function pathsOf(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (typeof value !== 'object' || value === null) return [prefix];
  const keys = Array.isArray(value) ? value.map((_, i) => i) : Object.keys(value);
  return [prefix, ...keys.flatMap((key) => pathsOf((value as never)[key], [...prefix, key]))];
}

function mutate(value: unknown, path: (string | number)[], replacement: { v?: unknown }): unknown {
  if (path.length === 0) return 'v' in replacement ? replacement.v : undefined;
  const copy = structuredClone(value) as Record<string | number, unknown>;
  let cursor = copy;
  for (const key of path.slice(0, -1)) cursor = cursor[key] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  if ('v' in replacement) cursor[last] = replacement.v;
  else delete cursor[last];
  return copy;
}

const anyValue = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(Number.NaN, Infinity, 1.5, '', 'text', 'image', 'complete', 'task', null, [], {}),
  fc.constant(undefined),
);

describe.each([
  ['modern', modernResultChecks, modernResults, modernSample],
  ['legacy', legacyResultChecks, legacyResults, legacySample],
] as const)('%s quick result checks', (_era, checks, table, sample) => {
  it('accept a well-formed tools/call result, as the schema does', () => {
    expect(checks['tools/call']!(sample)).toBe(true);
    expect(table['tools/call']!.safeParse(sample).success).toBe(true);
  });

  it('never accept a result the schema refuses', () => {
    const mutations = fc
      .tuple(
        fc.constantFrom(...pathsOf(sample)),
        fc.oneof(
          anyValue.map((v) => ({ v })),
          fc.constant({}),
        ),
        fc.dictionary(
          fc.constantFrom('resultType', 'content', 'structuredContent', 'isError', '_meta'),
          anyValue,
          { maxKeys: 2 },
        ),
      )
      .map(([path, replacement, extra]) => {
        const changed = mutate(sample, path, replacement);
        return typeof changed === 'object' && changed !== null && !Array.isArray(changed)
          ? { ...changed, ...extra }
          : changed;
      });
    fc.assert(
      fc.property(mutations, (result) => {
        if (typeof result !== 'object' || result === null || Array.isArray(result)) return;
        const quick = checks['tools/call']!(result as Record<string, unknown>);
        if (quick) expect(table['tools/call']!.safeParse(result).success).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('leave what they do not recognise to the schema', () => {
    const image = { ...sample, content: [{ type: 'image', data: 'AA==', mimeType: 'image/png' }] };
    expect(checks['tools/call']!(image)).toBe(false);
    expect(table['tools/call']!.safeParse(image).success).toBe(true);
  });
});
