import type { Json, JsonObject } from '@rondo/protocol';

/**
 * A JSON string the worker reads as an SWI-Prolog string (`"..."`), not as an atom: the value of
 * an argument the tool's predicate declares `+string`. Only {@link withPrologStrings} makes one.
 */
class PrologString {
  constructor(readonly text: string) {}
}

/**
 * The arguments of a tool call with the string values of `names` (the predicate's `+string`
 * input arguments) marked to be written as SWI-Prolog strings: the predicate gets the string it
 * declared, and unique client text makes no atom. Everything else is written as before.
 */
export function withPrologStrings(
  args: JsonObject,
  names: ReadonlySet<string> | undefined,
): JsonObject {
  if (names === undefined) return args;
  const marked: Record<string, unknown> = { ...args };
  for (const name of names) {
    const value = args[name];
    if (typeof value === 'string') marked[name] = new PrologString(value);
  }
  // Typed as JSON for the channel: prologTerm is the one reader of the mark.
  return marked as JsonObject;
}

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
  // An explicit stack rather than recursion: no nesting, however deep, overflows the call stack.
  let text = '';
  const pending: Piece[] = [piece(value)];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (typeof next === 'string') text += next;
    else if (Array.isArray(next)) text += openList(next, pending);
    else text += openCurly(next, pending);
  }
  return text;
}

/** Text to write as it is, or a list or an object still to open. */
type Piece = string | Json[] | { readonly [key: string]: Json | undefined };

function piece(value: Json): Piece {
  if (typeof value === 'string') return quotedAtom(value);
  if (value instanceof PrologString) return quotedString(value.text);
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '@(null)';
  if (typeof value === 'boolean') return value ? '@(true)' : '@(false)';
  if (value === null) return '@(null)';
  return value;
}

/** Writes `[` and stacks the members (last first, so the first is written first) and `]`. */
function openList(list: Json[], pending: Piece[]): string {
  pending.push(']');
  for (let i = list.length - 1; i >= 0; i--) {
    pending.push(piece(list[i]!));
    if (i > 0) pending.push(',');
  }
  return '[';
}

/** Writes `{` (or all of `{}`) and stacks `'k'-V` pairs and `}` as {@link openList} does. */
function openCurly(object: { readonly [key: string]: Json | undefined }, pending: Piece[]): string {
  const pairs: [string, Piece][] = [];
  for (const key in object) {
    const member = object[key];
    if (member !== undefined) pairs.push([key, piece(member)]); // as JSON.stringify leaves it out
  }
  if (pairs.length === 0) return '{}';
  pending.push('}');
  for (let i = pairs.length - 1; i >= 0; i--) {
    const [key, value] = pairs[i]!;
    pending.push(value);
    // `-` next to `-5` or `@(null)` would read as one symbol atom (`--`, `-@`): keep them apart.
    const first = typeof value === 'string' ? value[0] : '';
    const joint = first === '-' || first === '@' ? '- ' : '-';
    pending.push(`${i === 0 ? '' : ','}${quotedAtom(key)}${joint}`);
  }
  return '{';
}

// Characters a quoted atom cannot hold as they are: the quote, the backslash, and control
// characters (a newline would also end the protocol line).
const NEEDS_ESCAPE = /['\\\u0000-\u001f\u007f]/;
const ESCAPED = /['\\\u0000-\u001f\u007f]/g;
// The same for a double-quoted string, whose quote is `"`.
const STRING_NEEDS_ESCAPE = /["\\\u0000-\u001f\u007f]/;
const STRING_ESCAPED = /["\\\u0000-\u001f\u007f]/g;

function quotedString(text: string): string {
  if (!STRING_NEEDS_ESCAPE.test(text)) return `"${text}"`;
  return `"${text.replace(STRING_ESCAPED, escapeCharacter)}"`;
}

function quotedAtom(text: string): string {
  if (!NEEDS_ESCAPE.test(text)) return `'${text}'`;
  return `'${text.replace(ESCAPED, escapeCharacter)}'`;
}

function escapeCharacter(character: string): string {
  if (character === "'" || character === '"' || character === '\\') return `\\${character}`;
  return `\\x${character.charCodeAt(0).toString(16)}\\`;
}
