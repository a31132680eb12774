import { MetaKey } from '@rondo/protocol';

/**
 * Hand-written checks that recognise the common, well-formed result of the busiest call (a
 * finished `tools/call` with text content) without running zod, which costs more than the rest of
 * a small call. A check answers only "certainly valid": `true` means the method's result schema
 * accepts the value; `false` means "ask the schema", which then accepts it or names the error. A
 * property test holds each check to its schema.
 */
export type QuickResultCheck = (result: Record<string, unknown>) => boolean;

/** Nesting a JSON value may have for the quick check; deeper ones go to the schema. */
const MAX_JSON_DEPTH = 32;

function isObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

function isOptionalObject(value: unknown): boolean {
  return value === undefined || isObject(value);
}

function isOptionalString(value: unknown): boolean {
  return value === undefined || typeof value === 'string';
}

/** A JSON value (what `z.json()` accepts), within {@link MAX_JSON_DEPTH}. */
function isJson(value: unknown, depth: number): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (depth >= MAX_JSON_DEPTH) return false;
  if (Array.isArray(value)) {
    // An index loop, not `every`: a hole in a sparse array must fail as zod fails it.
    for (let i = 0; i < value.length; i++) if (!isJson(value[i], depth + 1)) return false;
    return true;
  }
  if (!isObject(value)) return false;
  for (const key in value) if (!isJson(value[key], depth + 1)) return false;
  return true;
}

/** Text blocks only, without annotations (anything else goes to the schema). */
function isTextContent(content: unknown): boolean {
  if (!Array.isArray(content)) return false;
  for (let i = 0; i < content.length; i++) {
    const block: unknown = content[i];
    if (
      !isObject(block) ||
      block.type !== 'text' ||
      typeof block.text !== 'string' ||
      block.annotations !== undefined ||
      !isOptionalObject(block._meta)
    ) {
      return false;
    }
  }
  return true;
}

/** A result's `_meta`: absent, or an object whose `serverInfo`, if any, is a plain implementation. */
function isResultMeta(meta: unknown): boolean {
  if (meta === undefined) return true;
  if (!isObject(meta)) return false;
  const info = meta[MetaKey.serverInfo];
  return (
    info === undefined ||
    (isObject(info) &&
      typeof info.name === 'string' &&
      typeof info.version === 'string' &&
      isOptionalString(info.title) &&
      isOptionalString(info.description) &&
      isOptionalString(info.websiteUrl) &&
      info.icons === undefined)
  );
}

function isToolOutcome(result: Record<string, unknown>): boolean {
  return (
    isTextContent(result.content) &&
    (result.isError === undefined || typeof result.isError === 'boolean')
  );
}

/** Quick checks of modern results, by method. */
export const modernResultChecks: Readonly<Record<string, QuickResultCheck>> = {
  'tools/call': (result) =>
    result.resultType === 'complete' &&
    isResultMeta(result._meta) &&
    isToolOutcome(result) &&
    (result.structuredContent === undefined || isJson(result.structuredContent, 0)),
};

/** Quick checks of legacy results, by method. */
export const legacyResultChecks: Readonly<Record<string, QuickResultCheck>> = {
  'tools/call': (result) =>
    result.resultType === undefined &&
    isOptionalObject(result._meta) &&
    isToolOutcome(result) &&
    isOptionalObject(result.structuredContent),
};
