import { describe, expect, it } from 'vitest';
import { VocabularyError, type Json } from '@rondo/protocol';
import { toolOutcomeOf } from '../src/toolResultCheck.js';

// A worker's answer is untrusted: the hand-checked shapes must accept exactly what the
// vocabulary schema accepts for them, and everything else must still meet the schema.
describe('toolOutcomeOf', () => {
  it('takes the common shapes as they are: a text, text items, structured content', () => {
    const shapes: Json[] = [
      { kind: 'text', text: 'hi' },
      {
        kind: 'results',
        items: [
          { kind: 'text', text: 'a' },
          { kind: 'text', text: 'b' },
        ],
      },
      { kind: 'structured', structured: { text: 'hi' } },
      { kind: 'structured', structured: { n: 1 }, items: [{ kind: 'text', text: 'n: 1' }] },
    ];
    for (const shape of shapes) expect(toolOutcomeOf(shape)).toBe(shape);
  });

  it('checks any other shape against the vocabulary (a copy comes back)', () => {
    const round = { kind: 'complete', result: { kind: 'text', text: 'done' } };
    expect(toolOutcomeOf(round)).toEqual(round);
    const image = { kind: 'image', data: 'AAAA', mimeType: 'image/png' };
    expect(toolOutcomeOf(image)).toEqual(image);
  });

  it('refuses what the vocabulary refuses, in the common shapes too', () => {
    const bad: Json[] = [
      { kind: 'text', text: 3 },
      { kind: 'text', text: 'hi', extra: true },
      { kind: 'results', items: [{ kind: 'text', text: 'a', extra: 1 }] },
      { kind: 'results', items: 'a' },
      { kind: 'structured' },
      { kind: 'structured', structured: {}, items: [{ kind: 'text' }] },
      { kind: 'structured', structured: {}, other: 1 },
      { kind: 'nothing' },
      'text',
      null,
    ];
    for (const value of bad) expect(() => toolOutcomeOf(value)).toThrow(VocabularyError);
  });
});
