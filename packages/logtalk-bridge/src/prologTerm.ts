import type { Json } from '@rondo/protocol';

/**
 * JSON as the text of a Prolog term in the bridge's conventions: objects are curly terms
 * `{'k'-V, ...}` (`{}` when empty), strings are quoted atoms, `true`/`false`/`null` are
 * `@(true)`/`@(false)`/`@(null)`, arrays are lists. Workers read it with `term_string/2`, which
 * runs in C: parsing the same message as JSON in Prolog costs ten times more.
 *
 * Every atom is quoted, so no text is taken for a variable or an operator; numbers keep the
 * meaning `JSON.stringify` gives them (an integral value is an integer, anything written with an
 * exponent or a fraction is a float, and what JSON cannot carry is `null`).
 */
export function prologTerm(value: Json): string {
  if (typeof value === 'string') return quotedAtom(value);
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '@(null)';
  if (typeof value === 'boolean') return value ? '@(true)' : '@(false)';
  if (value === null) return '@(null)';
  if (Array.isArray(value)) return `[${value.map(prologTerm).join(',')}]`;
  return curlyTerm(value);
}

function curlyTerm(object: { readonly [key: string]: Json | undefined }): string {
  let text = '';
  for (const key in object) {
    const member = object[key];
    if (member === undefined) continue; // as JSON.stringify leaves it out
    const valueText = prologTerm(member);
    // `-` next to `-5` or `@(null)` would read as one symbol atom (`--`, `-@`): keep them apart.
    const joint = valueText[0] === '-' || valueText[0] === '@' ? '- ' : '-';
    text += `${text === '' ? '' : ','}${quotedAtom(key)}${joint}${valueText}`;
  }
  return text === '' ? '{}' : `{${text}}`;
}

// Characters a quoted atom cannot hold as they are: the quote, the backslash, and control
// characters (a newline would also end the protocol line).
const NEEDS_ESCAPE = /['\\\u0000-\u001f\u007f]/;
const ESCAPED = /['\\\u0000-\u001f\u007f]/g;

function quotedAtom(text: string): string {
  if (!NEEDS_ESCAPE.test(text)) return `'${text}'`;
  return `'${text.replace(ESCAPED, escapeCharacter)}'`;
}

function escapeCharacter(character: string): string {
  if (character === "'" || character === '\\') return `\\${character}`;
  return `\\x${character.charCodeAt(0).toString(16)}\\`;
}
