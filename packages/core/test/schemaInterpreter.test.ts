import { describe, expect, it } from 'vitest';
import type { JsonObject } from '@rondo/protocol';
import { describeAjvError, interpretingCompiler } from '@rondo/core/internal';

// Where Workers forbid code generation, JSON Schemas are interpreted, not compiled by ajv.
describe('the JSON Schema interpreter', () => {
  const compile = (schema: JsonObject) => interpretingCompiler().compile(schema);
  const schema: JsonObject = {
    type: 'object',
    properties: { name: { type: 'string' }, size: { type: 'integer', minimum: 1 } },
    required: ['name'],
  };

  it('accepts a matching value and clears the errors', () => {
    const validate = compile(schema);
    expect(validate({ name: 'a', size: 2 })).toBe(true);
    expect(validate.errors).toBeNull();
  });

  it('names a missing required field the way ajv errors are described', () => {
    const validate = compile(schema);
    expect(validate({ size: 2 })).toBe(false);
    expect(describeAjvError(validate.errors?.[0])).toBe('name: required');
  });

  it('names the field of a nested mismatch', () => {
    const validate = compile(schema);
    expect(validate({ name: 'a', size: 0 })).toBe(false);
    expect(describeAjvError(validate.errors?.[0])).toMatch(/^size: /);
  });
});
