import { MetaKey } from '../revisions.js';
import { LOGGING_LEVELS } from './common.js';

/**
 * Hand-written checks that recognise the common, well-formed params of the busiest methods without
 * running zod, which costs more than the rest of a small request. A check answers only "certainly
 * valid": `true` means the method's schema accepts the value; `false` means "ask the schema", which
 * then accepts or reports the exact error. Anything unusual (sampling or roots answers, icons, a
 * task) is left to the schema. A property test holds each check to its schema.
 */
export type QuickCheck = (params: Record<string, unknown>) => boolean;

type Value = unknown;

const LEVELS: ReadonlySet<unknown> = new Set(LOGGING_LEVELS);

/** A JSON object: stricter than both zod's objects and records (which want a plain prototype). */
function isObject(value: Value): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

function isOptionalObject(value: Value): boolean {
  return value === undefined || isObject(value);
}

function isOptionalString(value: Value): boolean {
  return value === undefined || typeof value === 'string';
}

function isOptionalId(value: Value): boolean {
  return value === undefined || typeof value === 'string' || Number.isSafeInteger(value);
}

/** Optional object whose listed members are optional objects. */
function isOptionalSettings(value: Value, members: readonly string[]): boolean {
  if (value === undefined) return true;
  if (!isObject(value)) return false;
  return members.every((member) => isOptionalObject(value[member]));
}

/** Optional record of objects (`experimental`, `extensions`). */
function isOptionalObjectRecord(value: Value): boolean {
  if (value === undefined) return true;
  if (!isObject(value)) return false;
  for (const key in value) if (!isObject(value[key])) return false;
  return true;
}

function isStringRecord(value: Value): boolean {
  if (!isObject(value)) return false;
  for (const key in value) if (typeof value[key] !== 'string') return false;
  return true;
}

function isClientCapabilities(value: Value): boolean {
  if (!isObject(value)) return false;
  const roots = value.roots;
  return (
    isOptionalObjectRecord(value.experimental) &&
    isOptionalObjectRecord(value.extensions) &&
    (roots === undefined ||
      (isObject(roots) &&
        (roots.listChanged === undefined || typeof roots.listChanged === 'boolean'))) &&
    isOptionalSettings(value.sampling, ['context', 'tools']) &&
    isOptionalSettings(value.elicitation, ['form', 'url']) &&
    isOptionalObject(value.tasks)
  );
}

/** An implementation without icons (a client's `clientInfo`, as clients send it). */
function isPlainImplementation(value: Value): boolean {
  return (
    isObject(value) &&
    typeof value.name === 'string' &&
    typeof value.version === 'string' &&
    isOptionalString(value.title) &&
    isOptionalString(value.description) &&
    isOptionalString(value.websiteUrl) &&
    value.icons === undefined
  );
}

/** The `_meta` every modern request carries. */
function isModernMeta(meta: Value): boolean {
  if (!isObject(meta)) return false;
  const clientInfo = meta[MetaKey.clientInfo];
  const level = meta[MetaKey.logLevel];
  return (
    typeof meta[MetaKey.protocolVersion] === 'string' &&
    isClientCapabilities(meta[MetaKey.clientCapabilities]) &&
    (clientInfo === undefined || isPlainImplementation(clientInfo)) &&
    (level === undefined || LEVELS.has(level)) &&
    isOptionalId(meta.progressToken)
  );
}

/** The optional `_meta` of a legacy request. */
function isLegacyMeta(meta: Value): boolean {
  return meta === undefined || (isObject(meta) && isOptionalId(meta.progressToken));
}

const ELICIT_ACTIONS: ReadonlySet<unknown> = new Set(['accept', 'decline', 'cancel']);

function isElicitedValue(value: Value): boolean {
  if (Array.isArray(value)) {
    // An index loop, not `every`: a hole in a sparse array must fail as zod fails it.
    for (let i = 0; i < value.length; i++) if (typeof value[i] !== 'string') return false;
    return true;
  }
  return (
    typeof value === 'string' ||
    typeof value === 'boolean' ||
    (typeof value === 'number' && Number.isFinite(value))
  );
}

/** A client's answer to an elicitation. */
function isElicitResult(value: Value): boolean {
  if (!isObject(value) || !ELICIT_ACTIONS.has(value.action) || !isOptionalObject(value._meta)) {
    return false;
  }
  const content = value.content;
  if (content === undefined) return true;
  if (!isObject(content)) return false;
  for (const key in content) if (!isElicitedValue(content[key])) return false;
  return true;
}

/**
 * A first call, or a retry whose answers are all elicitation results (the common case; sampling
 * and roots answers are left to the schema).
 */
function isRoundParams(params: Record<string, unknown>): boolean {
  const answers = params.inputResponses;
  if (!isOptionalString(params.requestState)) return false;
  if (answers === undefined) return true;
  if (!isObject(answers)) return false;
  for (const key in answers) if (!isElicitResult(answers[key])) return false;
  return true;
}

/** Quick checks of the modern request params, by method. */
export const modernQuickChecks: Readonly<Record<string, QuickCheck>> = {
  'server/discover': (params) => isModernMeta(params._meta),
  'tools/list': (params) => isModernMeta(params._meta) && isOptionalString(params.cursor),
  'prompts/list': (params) => isModernMeta(params._meta) && isOptionalString(params.cursor),
  'resources/list': (params) => isModernMeta(params._meta) && isOptionalString(params.cursor),
  'resources/templates/list': (params) =>
    isModernMeta(params._meta) && isOptionalString(params.cursor),
  'tools/call': (params) =>
    isModernMeta(params._meta) &&
    typeof params.name === 'string' &&
    isOptionalObject(params.arguments) &&
    isRoundParams(params),
  'prompts/get': (params) =>
    isModernMeta(params._meta) &&
    typeof params.name === 'string' &&
    (params.arguments === undefined || isStringRecord(params.arguments)) &&
    isRoundParams(params),
  'resources/read': (params) =>
    isModernMeta(params._meta) && typeof params.uri === 'string' && isRoundParams(params),
};

/** Quick checks of the legacy request params, by method. */
export const legacyQuickChecks: Readonly<Record<string, QuickCheck>> = {
  ping: (params) => isLegacyMeta(params._meta),
  'tools/list': (params) => isLegacyMeta(params._meta) && isOptionalString(params.cursor),
  'prompts/list': (params) => isLegacyMeta(params._meta) && isOptionalString(params.cursor),
  'resources/list': (params) => isLegacyMeta(params._meta) && isOptionalString(params.cursor),
  'resources/templates/list': (params) =>
    isLegacyMeta(params._meta) && isOptionalString(params.cursor),
  'tools/call': (params) =>
    isLegacyMeta(params._meta) &&
    typeof params.name === 'string' &&
    isOptionalObject(params.arguments) &&
    params.task === undefined,
  'prompts/get': (params) =>
    isLegacyMeta(params._meta) &&
    typeof params.name === 'string' &&
    (params.arguments === undefined || isStringRecord(params.arguments)),
  'resources/read': (params) => isLegacyMeta(params._meta) && typeof params.uri === 'string',
  'resources/subscribe': (params) => isLegacyMeta(params._meta) && typeof params.uri === 'string',
  'resources/unsubscribe': (params) => isLegacyMeta(params._meta) && typeof params.uri === 'string',
};
