import { describe, expect, it } from 'vitest';
import type { JsonObject } from '@rondo/protocol';
import type { ToolDefinition } from '../src/contracts/definitions.js';
import { checkToolOutput } from '../src/outputValidation.js';

/** A tool definition with just what the output check reads. */
function toolWith(outputSchema: JsonObject): ToolDefinition {
  return { name: 'echo', outputSchema } as unknown as ToolDefinition;
}

function structured(value: JsonObject) {
  return { kind: 'complete' as const, result: { kind: 'structured' as const, structured: value } };
}

describe('checkToolOutput', () => {
  const plain = toolWith({
    type: 'object',
    properties: { text: { type: 'string' } },
    required: ['text'],
  });
  const defaulted = toolWith({
    type: 'object',
    properties: { text: { type: 'string' }, lang: { type: 'string', default: 'en' } },
    required: ['text'],
  });

  it('passes a matching result through as the tool returned it', () => {
    const round = structured({ text: 'hi' });
    expect(checkToolOutput(plain, round)).toBe(round);
  });

  it('turns a result that breaks the schema into an error result naming the field', () => {
    const outcome = checkToolOutput(plain, structured({ text: 3 }));
    expect(outcome).toMatchObject({ kind: 'complete', result: { kind: 'error' } });
    expect(JSON.stringify(outcome)).toContain('does not match its outputSchema');
  });

  it('leaves the result untouched when the schema has defaults (a copy is validated)', () => {
    const round = structured({ text: 'hi' });
    expect(checkToolOutput(defaulted, round)).toBe(round);
    expect(round.result.structured).toEqual({ text: 'hi' });
  });
});
