import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPrologProvider, type PrologProvider } from '../src/index.js';
import { fixture, logSink, makeContext } from './helpers.js';

// Issue 29: a JSON object reaches a provider as a curly term, on which memberchk/2 raises a type
// error; mcp_json_get/3,4,5 read a member with a default and a type check.

let provider: PrologProvider;

beforeAll(async () => {
  provider = await createPrologProvider({
    files: [fixture('jsonGet.pl')],
    workers: 1,
    onLog: logSink().onLog,
  });
});
afterAll(() => provider.close());

const call = async (tool: string, person: unknown) =>
  provider.callTool!(tool, { person } as never, makeContext());

describe('issue 29: mcp_json_get/3,4,5 on the JSON objects a provider receives', () => {
  it('reads members of a curly object, and of the argument pairs, with defaults for absent ones', async () => {
    expect(await call('introduce', { name: 'Ada', age: 36 })).toEqual({
      kind: 'text',
      text: 'Ada (age 36)',
    });
    expect(await call('introduce', {})).toEqual({ kind: 'text', text: 'someone (age unknown)' });
  });

  it('checks a member type, and mcp_json_get/3 fails for an absent member', async () => {
    expect(await call('count_tags', { tags: ['a', 'b', 'c'] })).toEqual({
      kind: 'text',
      text: '3 tags, missing member found: no',
    });
  });

  it('reports a member of the wrong type as a tool error naming the member', async () => {
    const result = await call('strict_age', { age: 'old' });
    expect(result).toMatchObject({ kind: 'error' });
    expect((result as { text: string }).text).toMatch(
      /expected a value of type integer, got old \(in mcp_json_get\/5\): the member age/,
    );
  });
});
