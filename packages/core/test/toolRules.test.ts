import { runtimeOf } from '@rondo/core/internal';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { text } from '@rondo/protocol';
import { ConfigurationError, ToolDefinitionError, createServer } from '@rondo/core';

const quiet = { log: () => undefined };
const server = () => createServer({ name: 'rules', version: '1.0.0', ...quiet });

/** The error registering the tool throws, for assertions on its fields. */
function refusal(register: () => unknown): ToolDefinitionError {
  try {
    register();
  } catch (failure) {
    expect(failure).toBeInstanceOf(ToolDefinitionError);
    expect(failure).toBeInstanceOf(ConfigurationError);
    return failure as ToolDefinitionError;
  }
  throw new Error('the tool was registered');
}

// Issue 29: one tool that breaks a rule made the official clients reject the whole tools/list.
describe('issue 29: a tool clients would reject is refused when registered', () => {
  it('refuses a zod input schema that is not an object (z.string())', () => {
    const failure = refusal(() =>
      server().tool('shout', { input: z.string() as never }, () => text('')),
    );
    expect(failure.tool).toBe('shout');
    expect(failure.rule).toBe('inputSchema');
    expect(failure.message).toBe(
      'tool "shout": its inputSchema must be an object schema (type "object") but has type "string" (with zod: z.object({...}))',
    );
  });

  it('refuses a JSON Schema input without type "object"', () => {
    const failure = refusal(() =>
      server().tool('list', { input: { properties: { a: { type: 'string' } } } }, () => text('')),
    );
    expect(failure.rule).toBe('inputSchema');
    expect(failure.message).toContain('but has no "type"');
  });

  it('refuses an output schema that is not an object schema', () => {
    const failure = refusal(() =>
      server().tool('count', { input: z.object({}), output: z.array(z.number()) }, () => text('')),
    );
    expect(failure.rule).toBe('outputSchema');
    expect(failure.message).toContain('its outputSchema must be an object schema');
  });

  it.each(['bad name!', '', 'a/b', 'naïve', 'x'.repeat(129)])(
    'refuses the tool name %j',
    (name) => {
      const failure = refusal(() => server().tool(name, {}, () => text('')));
      expect(failure.rule).toBe('name');
      expect(failure.message).toBe(
        `tool ${JSON.stringify(name)}: a tool name is 1 to 128 characters, each an ASCII letter, a digit, "_", "-" or "."`,
      );
    },
  );

  it('accepts names of every allowed character and length 128', async () => {
    const built = server()
      .tool('get_user-v2.list', {}, () => text('ok'))
      .tool('A'.repeat(128), { input: { type: 'object' } }, () => text('ok'));
    await runtimeOf(built).ready();
    expect(runtimeOf(built).catalog.tools.map((entry) => entry.definition.name)).toEqual([
      'get_user-v2.list',
      'A'.repeat(128),
    ]);
  });
});
