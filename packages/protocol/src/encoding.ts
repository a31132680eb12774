import { z } from 'zod';
import { assertInputRequired } from './constructors.js';
import { isPlainObject } from './jsonrpc.js';
import { describeZodError } from './schemas/issues.js';
import { VocabularyError, type Json, type JsonObject, type VocabularyValue } from './vocabulary.js';

/**
 * The JSON encoding of the vocabulary, version 1.
 *
 * Every form is an object whose `kind` is the Logtalk functor (`text`, `error`, `results`,
 * `structured`, `resource_link`, `image`, `audio`, `resource`, `message`, `messages`, `contents`,
 * `text_content`, `blob_content`, `complete`, `input_required`, `input_request`,
 * `form_elicitation`, `url_elicitation`, `sampling`, `roots`, `accept`, `decline`, `cancel`,
 * `sampling_result`, `roots_result`) and whose other members are the functor's arguments by name.
 * Optional arguments are absent, never null. An envelope `{"vocabulary": 1, "value": ...}` marks
 * the version where values are stored or sent between processes.
 */
export const VOCABULARY_VERSION = 1;

// JSON values are checked in place rather than rebuilt, so that every member survives decoding
// unchanged (a rebuilt record would silently drop a `__proto__` member).
const json = z.custom<Json>((value) => isJson(value), { error: 'expected a JSON value' });
const jsonObject = z.custom<JsonObject>((value) => isPlainObject(value) && isJson(value), {
  error: 'expected a JSON object',
});
const role = z.enum(['user', 'assistant']);
const annotations = z
  .object({
    audience: z.array(role).optional(),
    priority: z.number().min(0).max(1).optional(),
    lastModified: z.string().optional(),
  })
  .strict();

const textContent = z
  .object({
    kind: z.literal('text_content'),
    uri: z.string(),
    mimeType: z.string().optional(),
    text: z.string(),
    meta: jsonObject.optional(),
  })
  .strict();
const blobContent = z
  .object({
    kind: z.literal('blob_content'),
    uri: z.string(),
    mimeType: z.string().optional(),
    blob: z.string(),
    meta: jsonObject.optional(),
  })
  .strict();
const resourceContent = z.discriminatedUnion('kind', [textContent, blobContent]);

const contentItem = z.discriminatedUnion('kind', [
  z
    .object({ kind: z.literal('text'), text: z.string(), annotations: annotations.optional() })
    .strict(),
  z.object({ kind: z.literal('error'), text: z.string() }).strict(),
  z
    .object({
      kind: z.literal('resource_link'),
      uri: z.string(),
      name: z.string(),
      description: z.string().optional(),
      mimeType: z.string().optional(),
      title: z.string().optional(),
      annotations: annotations.optional(),
    })
    .strict(),
  z
    .object({
      kind: z.literal('image'),
      data: z.string(),
      mimeType: z.string(),
      annotations: annotations.optional(),
    })
    .strict(),
  z
    .object({
      kind: z.literal('audio'),
      data: z.string(),
      mimeType: z.string(),
      annotations: annotations.optional(),
    })
    .strict(),
  z
    .object({
      kind: z.literal('resource'),
      contents: resourceContent,
      annotations: annotations.optional(),
    })
    .strict(),
]);

const resultsValue = z.object({ kind: z.literal('results'), items: z.array(contentItem) }).strict();
const structuredValue = z
  .object({
    kind: z.literal('structured'),
    structured: json,
    items: z.array(contentItem).optional(),
  })
  .strict();
const toolResult = z.discriminatedUnion('kind', [contentItem, resultsValue, structuredValue]);

const promptMessage = z.object({ kind: z.literal('message'), role, content: contentItem }).strict();
const promptResult = z
  .object({
    kind: z.literal('messages'),
    description: z.string().optional(),
    messages: z.array(promptMessage),
  })
  .strict();
const resourceResult = z
  .object({ kind: z.literal('contents'), contents: z.array(resourceContent) })
  .strict();

const inputRequestBody = z.discriminatedUnion('kind', [
  z
    .object({ kind: z.literal('form_elicitation'), message: z.string(), schema: jsonObject })
    .strict(),
  z
    .object({
      kind: z.literal('url_elicitation'),
      message: z.string(),
      url: z.string(),
      elicitationId: z.string().optional(),
    })
    .strict(),
  z
    .object({
      kind: z.literal('sampling'),
      messages: z.array(z.object({ role, content: contentItem }).strict()),
      modelPreferences: jsonObject.optional(),
      systemPrompt: z.string().optional(),
      includeContext: z.enum(['none', 'thisServer', 'allServers']).optional(),
      maxTokens: z.number().int().positive().optional(),
      temperature: z.number().optional(),
      stopSequences: z.array(z.string()).optional(),
      tools: z.array(jsonObject).optional(),
      toolChoice: jsonObject.optional(),
    })
    .strict(),
  z.object({ kind: z.literal('roots') }).strict(),
]);
const inputRequest = z
  .object({ kind: z.literal('input_request'), key: z.string().min(1), request: inputRequestBody })
  .strict();

const inputResponse = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('accept'), content: jsonObject }).strict(),
  z.object({ kind: z.literal('decline') }).strict(),
  z.object({ kind: z.literal('cancel') }).strict(),
  z
    .object({
      kind: z.literal('sampling_result'),
      role,
      content: json,
      model: z.string(),
      stopReason: z.string().optional(),
    })
    .strict(),
  z
    .object({
      kind: z.literal('roots_result'),
      roots: z.array(z.object({ uri: z.string(), name: z.string().optional() }).strict()),
    })
    .strict(),
]);

// Every form has its own `kind`, so unions are discriminated: a malformed value is reported at
// the member that is wrong, not as "no form matches".
const anyResult = z.discriminatedUnion('kind', [
  contentItem,
  resultsValue,
  structuredValue,
  promptResult,
  resourceResult,
]);
const completeValue = z.object({ kind: z.literal('complete'), result: anyResult }).strict();
const inputRequiredValue = z
  .object({
    kind: z.literal('input_required'),
    requests: z.array(inputRequest),
    state: json.optional(),
  })
  .strict();

/** zod schemas of the vocabulary, for decoding values from untrusted sources (such as Prolog). */
export const vocabularySchemas = {
  json,
  contentItem,
  toolResult,
  promptMessage,
  promptResult,
  resourceContent,
  resourceResult,
  inputRequest,
  inputResponse,
  toolRound: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('complete'), result: toolResult }).strict(),
    inputRequiredValue,
  ]),
  promptRound: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('complete'), result: promptResult }).strict(),
    inputRequiredValue,
  ]),
  resourceRound: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('complete'), result: resourceResult }).strict(),
    inputRequiredValue,
  ]),
  value: z.discriminatedUnion('kind', [
    anyResult,
    promptMessage,
    resourceContent,
    inputRequest,
    inputResponse,
    completeValue,
    inputRequiredValue,
  ]),
} as const;

/** Wraps a vocabulary value in its versioned envelope. */
export function encodeVocabulary(value: VocabularyValue): { vocabulary: number; value: Json } {
  return { vocabulary: VOCABULARY_VERSION, value: JSON.parse(JSON.stringify(value)) as Json };
}

/**
 * Decodes a versioned envelope (or a bare value) back into a vocabulary value, checking its shape
 * and the `input_required` rules. Throws a `VocabularyError` naming what is wrong.
 */
export function decodeVocabulary(encoded: unknown): VocabularyValue {
  const value = unwrapEnvelope(encoded);
  return parseVocabulary(vocabularySchemas.value, value);
}

/** Checks `value` against one vocabulary schema; throws a `VocabularyError` when it does not fit. */
export function parseVocabulary<T>(schema: z.ZodType<T>, value: unknown): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    throw new VocabularyError(`not a vocabulary value: ${describeZodError(parsed.error, 'value')}`);
  }
  const result = parsed.data as { kind?: string; requests?: []; state?: Json };
  if (result.kind === 'input_required') assertInputRequired(result.requests ?? [], result.state);
  return parsed.data;
}

function unwrapEnvelope(encoded: unknown): unknown {
  if (typeof encoded === 'object' && encoded !== null && 'vocabulary' in encoded) {
    const envelope = encoded as { vocabulary: unknown; value?: unknown };
    if (envelope.vocabulary !== VOCABULARY_VERSION) {
      throw new VocabularyError(`unsupported vocabulary version ${String(envelope.vocabulary)}`);
    }
    return envelope.value;
  }
  return encoded;
}

/** True for a JSON value: null, a boolean, a finite number, a string, or arrays and plain objects of them. */
function isJson(value: unknown, ancestors = new Set<object>()): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (typeof value !== 'object' || ancestors.has(value)) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  if (!Array.isArray(value) && prototype !== Object.prototype && prototype !== null) return false;
  ancestors.add(value);
  const members: unknown[] = Array.isArray(value) ? value : Object.values(value);
  const valid = members.every((member) => isJson(member, ancestors));
  ancestors.delete(value);
  return valid;
}
