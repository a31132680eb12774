import type { ToolOutcome } from '@rondo/core';
import { parseVocabulary, vocabularySchemas, type Json } from '@rondo/protocol';
import { z } from 'zod';

const toolOutcome = z.union([vocabularySchemas.toolRound, vocabularySchemas.toolResult]);

/**
 * A worker's answer to a tool call, checked as a tool outcome of the vocabulary (a Prolog process
 * is untrusted: anything else throws a `VocabularyError`). `value` comes out of `JSON.parse`, so
 * it is JSON already. The shapes nearly every tool answers (a text, text items, structured
 * content with text items) are checked by hand, with the same rules as the schema (exactly these
 * keys, a string text); any other shape, or anything these rules do not accept, goes through the
 * vocabulary schema, whose walk and copy cost more than the rest of a small call on this side.
 */
export function toolOutcomeOf(value: Json): ToolOutcome {
  if (isPlainToolResult(value)) return value as unknown as ToolOutcome;
  return parseVocabulary<ToolOutcome>(toolOutcome, value);
}

type Fields = { readonly [key: string]: unknown };

function isPlainToolResult(value: unknown): boolean {
  if (!isObject(value)) return false;
  switch (value.kind) {
    case 'text':
      return isTextItem(value);
    case 'results':
      return hasOnly(value, 2) && isTextItems(value.items);
    case 'structured':
      return value.structured !== undefined && value.items === undefined
        ? hasOnly(value, 2)
        : hasOnly(value, 3) && value.structured !== undefined && isTextItems(value.items);
    default:
      return false;
  }
}

function isTextItems(items: unknown): boolean {
  if (!Array.isArray(items)) return false;
  for (const item of items) if (!isObject(item) || !isTextItem(item)) return false;
  return true;
}

/** `{kind: 'text', text}` and nothing else (the schema is strict: an unknown key is refused). */
function isTextItem(item: Fields): boolean {
  return item.kind === 'text' && typeof item.text === 'string' && hasOnly(item, 2);
}

function isObject(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** True when `fields` has exactly `count` keys (the ones just checked are among them). */
function hasOnly(fields: Fields, count: number): boolean {
  let keys = 0;
  for (const _ in fields) keys++;
  return keys === count;
}
