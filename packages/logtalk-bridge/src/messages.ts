import type { TaskDeclaration } from '@rondo/core';
import { vocabularySchemas, type Json, type JsonObject } from '@rondo/protocol';
import { IconSchema, LoggingLevelSchema } from '@rondo/protocol/internal';
import { nestsDeeperThan } from '@rondo/core/internal';
import { z } from 'zod';
import { uriTemplateProblem } from './uriTemplateCheck.js';

/** Messages a worker writes on the protocol channel; every one is checked (Prolog is untrusted). */

const id = z.number().int().nonnegative();
// Every value here comes out of JSON.parse, so it is JSON already: walking it again with the
// recursive vocabulary schema would cost more than the rest of the message. Values that matter
// are checked where they are used (results against the vocabulary, descriptions below).
const json = z.custom<Json>(() => true);
const jsonObject: z.ZodType<JsonObject> = z.record(z.string(), vocabularySchemas.json);
const anyObject = z.custom<JsonObject>(
  (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
);

const workerMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready'), provider: z.string() }),
  z.object({
    type: z.literal('load_error'),
    file: z.string(),
    line: z.number().int().nullable(),
    /** The column of a syntax error. */
    column: z.number().int().nullable().optional(),
    message: z.string(),
  }),
  z.object({ type: z.literal('result'), id, value: json }),
  z.object({
    type: z.literal('failure'),
    id,
    kind: z.string(),
    message: z.string(),
    /** With kind `mcp_error`: the JSON-RPC error code the goal threw (`mcp_error(Code, Message)`). */
    code: z.number().int().min(-32768).max(32767).optional(),
  }),
  z.object({
    type: z.literal('progress'),
    id,
    progress: z.number(),
    total: z.number().optional(),
    message: z.string().optional(),
  }),
  z.object({ type: z.literal('elicit'), id, message: z.string(), schema: anyObject }),
  z.object({ type: z.literal('sampling'), id, request: anyObject }),
  z.object({ type: z.literal('roots'), id }),
  // mcp_close_stream/0: the call's response stream may close while it runs (SSE polling).
  z.object({ type: z.literal('close_stream'), id }),
  z.object({
    type: z.literal('log'),
    id: id.optional(),
    level: LoggingLevelSchema,
    data: json,
    logger: z.string().optional(),
  }),
  // A goal to run in every other worker (mcp_broadcast/1), as canonical Prolog text.
  z.object({ type: z.literal('broadcast'), goal: z.string() }),
  // An occurrence of a declared event type (mcp_emit/2,3), at any time.
  z.object({
    type: z.literal('emit'),
    event: z.string(),
    data: anyObject,
    match: anyObject.optional(),
    eventId: z.string().min(1).max(256).optional(),
  }),
  // A list changed (with the provider's new description), or one resource did (with its uri).
  z.object({
    type: z.literal('changed'),
    what: z.enum(['tools', 'prompts', 'resources', 'resource']),
    description: json.optional(),
    uri: z.string().optional(),
  }),
]);

/** A message from a worker. */
export type WorkerMessage = z.infer<typeof workerMessage>;

/** One protocol line, parsed: the message, or what is wrong with the line. */
export type ParsedLine = { ok: true; message: WorkerMessage } | { ok: false; problem: string };

/**
 * Parses one protocol line. A line that is not a protocol message, or one nesting deeper than
 * `maxDepth` levels (checked before anything walks it recursively), is a problem.
 */
export function parseWorkerMessage(line: string, maxDepth: number): ParsedLine {
  const unknown = {
    ok: false,
    problem: `non-protocol output ${JSON.stringify(line.slice(0, 200))}`,
  };
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return unknown as ParsedLine;
  }
  if (nestsDeeperThan(value, maxDepth))
    return { ok: false, problem: `a message nesting deeper than ${maxDepth} levels` };
  // The answer of a call, nearly every line under load, checked by hand: the same test as the
  // schema's (an object of this type with a non-negative integer id and a value), without the
  // schema's walk and copy. Its value is checked where it is used, like every value here.
  if (isResult(value)) return { ok: true, message: value };
  const parsed = workerMessage.safeParse(value);
  return parsed.success ? { ok: true, message: parsed.data } : (unknown as ParsedLine);
}

type ResultMessage = Extract<WorkerMessage, { type: 'result' }>;

function isResult(value: unknown): value is ResultMessage {
  if (typeof value !== 'object' || value === null) return false;
  const message = value as { type?: unknown; id?: unknown; value?: unknown };
  return (
    message.type === 'result' &&
    Number.isSafeInteger(message.id) &&
    (message.id as number) >= 0 &&
    message.value !== undefined
  );
}

const text = z.string();
const optionalText = text.optional();
/** `tool_icons/2`, `prompt_icons/2`, `resource_icons/2` (Logtalk's 2025-11-25 icons). */
const icons = z.array(IconSchema).optional();
/** `tool_ui/2` (MCP Apps): the tool's `_meta.ui`. */
const toolMeta = z
  .object({
    ui: z.object({
      resourceUri: text.optional(),
      visibility: z.array(z.enum(['model', 'app'])).optional(),
    }),
  })
  .optional();
/** `resource_ui_meta/2` (MCP Apps): the resource's `_meta.ui`, a JSON object. */
const resourceMeta = z.object({ ui: jsonObject }).optional();

const description = z.object({
  name: text,
  flavour: z.enum(['plain', 'logtalk']),
  capabilities: z.array(text),
  tools: z.array(
    z.object({
      name: text,
      title: optionalText,
      description: optionalText,
      inputSchema: jsonObject,
      outputSchema: jsonObject.optional(),
      icons,
      taskSupport: z.enum(['forbidden', 'optional', 'required']).optional(),
      startsAfterInput: z.boolean().optional(),
      /** `tool_scopes/2`: the scopes a call needs. */
      requiredScopes: z.array(text).optional(),
      /** The input arguments declared `+string`, sent as SWI-Prolog strings. */
      stringArguments: z.array(text).optional(),
      _meta: toolMeta,
    }),
  ),
  prompts: z.array(
    z.object({
      name: text,
      title: optionalText,
      description: optionalText,
      arguments: z.array(
        z.object({ name: text, description: optionalText, required: z.boolean() }),
      ),
      icons,
    }),
  ),
  resources: z.array(
    z.object({
      uri: text,
      name: text,
      title: optionalText,
      description: optionalText,
      mimeType: optionalText,
      icons,
      _meta: resourceMeta,
    }),
  ),
  templates: z.array(
    z.object({
      uriTemplate: text,
      name: text,
      title: optionalText,
      description: optionalText,
      mimeType: optionalText,
      icons,
    }),
  ),
  cache: z.array(
    z.object({
      operation: text,
      key: optionalText,
      ttlMs: z.number().int().nonnegative(),
      cacheScope: z.enum(['public', 'private']),
    }),
  ),
  completion: z.boolean(),
  skills: z
    .array(
      z.union([
        z.object({
          name: text,
          description: text,
          instructions: text,
          frontmatter: jsonObject,
          files: z.array(z.object({ path: text, text })),
        }),
        z.object({ directory: text }),
      ]),
    )
    .default([]),
  /** `events/1`: the event types the provider declares (the Events extension). */
  events: z
    .array(
      z.object({
        name: text,
        title: optionalText,
        description: text,
        inputSchema: jsonObject.optional(),
        payloadSchema: jsonObject.optional(),
        modes: z.array(z.enum(['poll', 'push', 'webhook'])).optional(),
        replay: z
          .object({
            count: z.number().int().positive().optional(),
            bytes: z.number().int().positive().optional(),
            ageMs: z.number().int().positive().optional(),
          })
          .optional(),
      }),
    )
    .default([]),
});

/** What a provider offers, as its worker describes it once at start. */
export type ProviderDescription = z.infer<typeof description>;

/**
 * Checks a description; returns an error message when it does not fit, or (unless
 * `checkTemplates` is false, for `problems()` to report them) when a template is malformed.
 */
export function parseDescription(value: Json, checkTemplates = true): ProviderDescription | string {
  const parsed = description.safeParse(value);
  if (parsed.success) {
    for (const { uriTemplate } of checkTemplates ? parsed.data.templates : []) {
      const problem = uriTemplateProblem(uriTemplate);
      if (problem) return `resource template "${uriTemplate}" is not a URI template: ${problem}`;
    }
    return parsed.data;
  }
  const issue = parsed.error.issues[0];
  return `invalid provider description at ${issue?.path.join('.') ?? '?'}: ${issue?.message ?? ''}`;
}

/** The completion answer of `completion/4`. */
export const completionAnswer = z.object({
  values: z.array(z.union([z.string(), z.number()]).transform(String)),
  total: z.number().int().nonnegative().optional(),
  hasMore: z.boolean().optional(),
});

/** A described tool's `task_support/2`, by name (none when it declared none). */
export function taskDeclarationOf(
  tool: ProviderDescription['tools'][number],
): [string, TaskDeclaration][] {
  if (tool.taskSupport === undefined) return [];
  const declaration: TaskDeclaration =
    tool.startsAfterInput === true
      ? { support: tool.taskSupport, startsAfterInput: true }
      : { support: tool.taskSupport };
  return [[tool.name, declaration]];
}
