import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigurationError } from '@rondo/core';
import { compileArgumentValidator, toJsonSchema } from '@rondo/core/internal';

describe('argument validation', () => {
  it('validates JSON Schema 2020-12 keywords and names the failing field', () => {
    const validate = compileArgumentValidator(
      {
        type: 'object',
        properties: {
          items: { type: 'array', prefixItems: [{ type: 'string' }], items: false },
          n: { type: 'integer', minimum: 1 },
        },
        required: ['n'],
      },
      'tool "t"',
    );
    expect(validate({ n: 2, items: ['a'] })).toEqual({ ok: true, value: { n: 2, items: ['a'] } });
    expect(validate({ n: 0 })).toMatchObject({ ok: false, message: expect.stringContaining('n') });
    expect(validate({ n: 1, items: ['a', 'b'] })).toMatchObject({
      ok: false,
      message: expect.stringContaining('items'),
    });
    expect(validate({})).toMatchObject({
      ok: false,
      message: expect.stringContaining('n: required'),
    });
  });

  it('fills JSON Schema defaults into the value, never into the arguments given', () => {
    const validate = compileArgumentValidator(
      { type: 'object', properties: { size: { type: 'integer', default: 3 } } },
      't',
    );
    const given = {};
    expect(validate(given)).toEqual({ ok: true, value: { size: 3 } });
    expect(given).toEqual({});
  });

  it('applies zod defaults', () => {
    const validate = compileArgumentValidator(
      z.object({ greeting: z.string().default('hi') }),
      't',
    );
    expect(validate({})).toEqual({ ok: true, value: { greeting: 'hi' } });
  });

  it('refuses an invalid JSON Schema at registration', () => {
    expect(() =>
      compileArgumentValidator({ type: 'object', properties: { a: { type: 'nonsense' } } }, 't'),
    ).toThrow(ConfigurationError);
  });

  it('converts zod to JSON Schema without a $schema member', () => {
    const schema = toJsonSchema(z.object({ a: z.string().describe('the a') }));
    expect(schema).toMatchObject({
      type: 'object',
      properties: { a: { type: 'string', description: 'the a' } },
    });
    expect(schema.$schema).toBeUndefined();
  });
});
