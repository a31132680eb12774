import { describe, expect, it } from 'vitest';
import { ErrorCode, McpError } from '@rondo/protocol';
import { nestsDeeperThan } from '../src/internal.js';
import { admitToolArguments } from '../src/limits.js';

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
