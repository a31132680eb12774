import { runtimeOf } from '@rondo/core/internal';
import { describe, expect, it } from 'vitest';
import { ErrorCode, McpError, messages, text } from '@rondo/protocol';
import { createServer } from '@rondo/core';
import { nestsDeeperThan } from '../src/internal.js';
import { admitToolArguments } from '../src/limits.js';
import { testContext } from './testContext.js';

/** `levels` arrays nested in each other, built without recursion. */
function nested(levels: number): unknown {
  let value: unknown = [];
  for (let i = 1; i < levels; i++) value = [value];
  return value;
}

describe('nestsDeeperThan', () => {
  it('counts an object or array as one level more than its deepest member', () => {
    expect(nestsDeeperThan(1, 0)).toBe(false);
    expect(nestsDeeperThan({}, 0)).toBe(true);
    expect(nestsDeeperThan({ a: [1, { b: 'x' }] }, 3)).toBe(false);
    expect(nestsDeeperThan({ a: [1, { b: 'x' }] }, 2)).toBe(true);
  });

  it('walks own enumerable members only, as Object.values gives them', () => {
    const inherited = Object.create({ deep: nested(10) }) as object;
    expect(nestsDeeperThan(inherited, 1)).toBe(false);
    const hidden = {};
    Object.defineProperty(hidden, 'deep', { value: nested(10), enumerable: false });
    expect(nestsDeeperThan(hidden, 1)).toBe(false);
    expect(nestsDeeperThan({ wide: [1, 2, { a: [{}] }], flat: 'x' }, 4)).toBe(true);
    expect(nestsDeeperThan({ wide: [1, 2, { a: [{}] }], flat: 'x' }, 5)).toBe(false);
  });

  it('gives the same answer on the call stack and on its own stack (limits past 256)', () => {
    for (const levels of [255, 256, 257, 300]) {
      const value = { a: [1, 'x'], b: nested(levels - 1) };
      expect(nestsDeeperThan(value, levels - 1)).toBe(true);
      expect(nestsDeeperThan(value, levels)).toBe(false);
    }
  });

  it('walks a million levels without the call stack', () => {
    expect(nestsDeeperThan(nested(1_000_000), 999_999)).toBe(true);
    expect(nestsDeeperThan(nested(1_000_000), 1_000_000)).toBe(false);
  });
});

describe('admitToolArguments', () => {
  it('refuses arguments past the limit with -32602 naming it', () => {
    let thrown: unknown;
    try {
      admitToolArguments('t', { a: nested(64) }, 64);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(McpError);
    expect(thrown).toMatchObject({
      code: ErrorCode.InvalidParams,
      message: 'Invalid params: arguments nest deeper than 64 levels (limit maxArgumentDepth)',
    });
  });

  it('admits absent arguments as {} and answers a non-object with a tool error', () => {
    expect(admitToolArguments('t', undefined, 64)).toEqual({ ok: true, value: {} });
    expect(admitToolArguments('t', [1], 64)).toEqual({
      ok: false,
      message: 'Invalid arguments for tool "t": arguments must be an object',
    });
  });
});

describe('RondoServer with limits.maxArgumentDepth', () => {
  it('refuses too deep tool and prompt arguments with -32602 before any handler runs', async () => {
    const server = createServer({ name: 's', version: '1', log: () => undefined })
      .tool('t', {}, () => text('ran'))
      .prompt('p', {}, () => messages([]));
    await runtimeOf(server).ready();
    const deep = { a: nested(64) };
    const refusal = { code: ErrorCode.InvalidParams, message: /deeper than 64 levels/ };
    await expect(runtimeOf(server).callTool('t', deep, testContext())).rejects.toMatchObject(
      refusal,
    );
    await expect(
      runtimeOf(server).getPrompt('p', deep as never, testContext()),
    ).rejects.toMatchObject(refusal);
    expect(await runtimeOf(server).callTool('t', { a: nested(63) }, testContext())).toMatchObject({
      result: { kind: 'text', text: 'ran' },
    });
  });
});

describe('an invalid-arguments message (issue 29)', () => {
  it('names the tool the user called, not the provider it lives in', async () => {
    const server = createServer({ name: 's', version: '1', log: () => undefined }).tool(
      'add',
      { input: { type: 'object', properties: { a: { type: 'number' } }, required: ['a'] } },
      () => text('ran'),
    );
    await runtimeOf(server).ready();
    const answer = await runtimeOf(server).callTool('add', { a: 'two' }, testContext());
    const shown = JSON.stringify(answer);
    expect(shown).toContain('Invalid arguments for tool \\"add\\": ');
    expect(shown).not.toMatch(/ of local/);
  });
});
