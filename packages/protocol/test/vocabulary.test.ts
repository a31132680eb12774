import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  VOCABULARY_VERSION,
  VocabularyError,
  decodeVocabulary,
  encodeVocabulary,
  inputRequest,
  inputRequired,
  roots,
  structured,
  text,
  type Json,
  type VocabularyValue,
} from '../src/index.js';
import { vocabularyForms, vocabularyValue } from './vocabularyArbitraries.js';

/** Every form of the vocabulary's JSON encoding, version 1 (the README documents each). */
const VOCABULARY_FORMS = [
  'text',
  'error',
  'results',
  'structured',
  'resource_link',
  'image',
  'audio',
  'resource',
  'message',
  'messages',
  'contents',
  'text_content',
  'blob_content',
  'complete',
  'input_required',
  'input_request',
  'form_elicitation',
  'url_elicitation',
  'sampling',
  'roots',
  'accept',
  'decline',
  'cancel',
  'sampling_result',
  'roots_result',
];

/** The trip a value makes between processes: encode, write as JSON, read, decode. */
function roundTrip(value: VocabularyValue): VocabularyValue {
  return decodeVocabulary(JSON.parse(JSON.stringify(encodeVocabulary(value))));
}

describe('vocabulary encoding', () => {
  it('has an arbitrary for every form', () => {
    expect(Object.keys(vocabularyForms).sort()).toEqual([...VOCABULARY_FORMS].sort());
  });

  it.each(Object.entries(vocabularyForms))(
    'round-trips %s values unchanged',
    (_kind, arbitrary) => {
      fc.assert(
        fc.property(arbitrary, (value) => {
          expectUnchanged(roundTrip(value), value);
        }),
        { numRuns: 150 },
      );
    },
  );

  it('round-trips any mix of forms unchanged', () => {
    fc.assert(
      fc.property(vocabularyValue, (value) => {
        expectUnchanged(roundTrip(value), value);
      }),
      { numRuns: 300 },
    );
  });

  it('wraps values in a versioned envelope and also decodes bare values', () => {
    const value = text('hello');
    expect(encodeVocabulary(value)).toEqual({ vocabulary: VOCABULARY_VERSION, value });
    expect(VOCABULARY_VERSION).toBe(1);
    expect(decodeVocabulary(value)).toStrictEqual(value);
  });

  it('keeps a "__proto__" member of structured content as a plain member', () => {
    const decoded = roundTrip(
      structured(JSON.parse('{"__proto__":{"polluted":true},"a":1}') as Json),
    );
    expect(decoded.kind === 'structured' && Object.keys(decoded.structured as object)).toEqual([
      '__proto__',
      'a',
    ]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('inputRequired', () => {
  it('rejects an empty request list without a state', () => {
    expect(() => inputRequired([])).toThrow(VocabularyError);
    expect(() => inputRequired([])).toThrow('at least one input request or a state');
  });

  it('accepts an empty request list with a state, even a null one', () => {
    expect(inputRequired([], { step: 2 })).toEqual({
      kind: 'input_required',
      requests: [],
      state: { step: 2 },
    });
    expect(inputRequired([], null)).toEqual({ kind: 'input_required', requests: [], state: null });
  });

  it('rejects duplicate keys', () => {
    const requests = [inputRequest('root', roots()), inputRequest('root', roots())];
    expect(() => inputRequired(requests)).toThrow(VocabularyError);
    expect(() => inputRequired(requests)).toThrow('duplicate input request key "root"');
  });

  it('rejects an empty key', () => {
    expect(() => inputRequired([inputRequest('', roots())])).toThrow(VocabularyError);
  });
});

const cyclic: Record<string, unknown> = { a: 1 };
cyclic.self = cyclic;

/** Malformed values and the message their VocabularyError must contain. */
const malformed: [string, unknown, string][] = [
  [
    'a wrongly typed item member',
    { kind: 'results', items: [{ kind: 'text', text: 5 }] },
    'value.items[0].text: expected string',
  ],
  ['an unknown member', { kind: 'text', text: 'a', extra: 1 }, 'value: unexpected member "extra"'],
  ['an unknown kind', { kind: 'nope' }, 'value.kind: expected one of "text", "error"'],
  ['a missing kind', { text: 'a' }, 'value.kind: expected one of'],
  [
    'a role outside user and assistant',
    { kind: 'message', role: 'system', content: { kind: 'text', text: '' } },
    'value.role: expected one of "user", "assistant"',
  ],
  [
    'an empty input request key',
    { kind: 'input_request', key: '', request: { kind: 'roots' } },
    'value.key:',
  ],
  [
    'an unknown input request body',
    { kind: 'input_request', key: 'k', request: { kind: 'ping' } },
    'value.request.kind: expected one of',
  ],
  [
    'a deep error inside complete',
    {
      kind: 'complete',
      result: {
        kind: 'messages',
        messages: [
          {
            kind: 'message',
            role: 'user',
            content: { kind: 'image', data: 1, mimeType: 'image/png' },
          },
        ],
      },
    },
    'value.result.messages[0].content.data: expected string',
  ],
  [
    'a function as structured content',
    { kind: 'structured', structured: () => 1 },
    'value.structured: expected a JSON value',
  ],
  [
    'NaN as structured content',
    { kind: 'structured', structured: NaN },
    'value.structured: expected a JSON value',
  ],
  [
    'a cycle in structured content',
    { kind: 'structured', structured: cyclic },
    'value.structured: expected a JSON value',
  ],
  [
    'a list as meta',
    { kind: 'text_content', uri: 'file:///a', text: '', meta: [] },
    'value.meta: expected a JSON object',
  ],
  [
    'an enveloped malformed value',
    { vocabulary: 1, value: { kind: 'text' } },
    'value.text: expected string',
  ],
  [
    'an unsupported envelope version',
    { vocabulary: 2, value: { kind: 'decline' } },
    'unsupported vocabulary version 2',
  ],
  [
    'input_required with neither requests nor state',
    { kind: 'input_required', requests: [] },
    'at least one input request or a state',
  ],
  [
    'input_required with duplicate keys',
    {
      kind: 'input_required',
      requests: [
        { kind: 'input_request', key: 'a', request: { kind: 'roots' } },
        { kind: 'input_request', key: 'a', request: { kind: 'roots' } },
      ],
    },
    'duplicate input request key "a"',
  ],
  ['a non-object', 'text', 'value: expected object'],
];

describe('decodeVocabulary', () => {
  it.each(malformed)('rejects %s, naming where', (_what, value, expected) => {
    expect(() => decodeVocabulary(value)).toThrow(VocabularyError);
    expect(() => decodeVocabulary(value)).toThrow(expected);
  });
});

/**
 * Asserts a decoded value equals the original member for member. Vitest's strict equality takes an
 * own `constructor` member (a form field may be named so) for the object's type, so the comparison
 * is by structure, plus the exact JSON text with members sorted (decoding may reorder members).
 */
function expectUnchanged(decoded: unknown, original: unknown): void {
  expect(decoded).toEqual(original);
  expect(sortedJson(decoded)).toBe(sortedJson(original));
}

function sortedJson(value: unknown): string {
  return JSON.stringify(value, (_key, member: unknown) =>
    member !== null && typeof member === 'object' && !Array.isArray(member)
      ? Object.fromEntries(Object.entries(member).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : member,
  );
}
