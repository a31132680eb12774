import { z } from 'zod';
import { MetaKey } from '../revisions.js';
import { ImplementationSchema, JsonValueSchema, RequestIdSchema } from './common.js';
import { ServerCapabilitiesSchema } from './capabilities.js';
import { ContentBlockSchema, ResourceContentsSchema } from './content.js';
import {
  CompletionSchema,
  PromptMessageSchema,
  PromptSchema,
  ResourceSchema,
  ResourceTemplateSchema,
  ToolSchema,
} from './descriptors.js';
import { ElicitRequestParamsSchema } from './elicitation.js';
import { CreateMessageRequestParamsSchema, ListRootsRequestParamsSchema } from './sampling.js';

/**
 * Results a server sends to a modern (2026-07-28) client. Every result has a `resultType`:
 * `complete`, or `input_required` for a round that asks the client for input (MRTR). List
 * results, `resources/read` and `server/discover` also say how long they may be cached.
 */

/** The `_meta` of a modern result: the server identifies itself here. */
export const ResultMetaObjectSchema = z
  .object({ [MetaKey.serverInfo]: ImplementationSchema.optional() })
  .loose();
export type ResultMetaObject = z.infer<typeof ResultMetaObjectSchema>;

/** Who may cache a result: only this client (`private`) or anyone (`public`). */
export const CacheScopeSchema = z.enum(['private', 'public']);
export type CacheScope = z.infer<typeof CacheScopeSchema>;

const completeResult = {
  _meta: ResultMetaObjectSchema.optional(),
  resultType: z.literal('complete'),
} as const;

const cacheable = {
  ...completeResult,
  ttlMs: z.int().min(0),
  cacheScope: CacheScopeSchema,
} as const;

const listResult = { ...cacheable, nextCursor: z.string().optional() } as const;

/** The answer to `server/discover`. */
export const DiscoverResultSchema = z
  .object({
    ...cacheable,
    supportedVersions: z.array(z.string()),
    capabilities: ServerCapabilitiesSchema,
    instructions: z.string().optional(),
  })
  .loose();
export type DiscoverResult = z.infer<typeof DiscoverResultSchema>;

/** `tools/list`. */
export const ModernListToolsResultSchema = z
  .object({ ...listResult, tools: z.array(ToolSchema) })
  .loose();
export type ModernListToolsResult = z.infer<typeof ModernListToolsResultSchema>;

/** `prompts/list`. */
export const ModernListPromptsResultSchema = z
  .object({ ...listResult, prompts: z.array(PromptSchema) })
  .loose();
export type ModernListPromptsResult = z.infer<typeof ModernListPromptsResultSchema>;

/** `resources/list`. */
export const ModernListResourcesResultSchema = z
  .object({ ...listResult, resources: z.array(ResourceSchema) })
  .loose();
export type ModernListResourcesResult = z.infer<typeof ModernListResourcesResultSchema>;

/** `resources/templates/list`. */
export const ModernListResourceTemplatesResultSchema = z
  .object({ ...listResult, resourceTemplates: z.array(ResourceTemplateSchema) })
  .loose();
export type ModernListResourceTemplatesResult = z.infer<
  typeof ModernListResourceTemplatesResultSchema
>;

/** A finished `tools/call`: structured content may be any JSON value. */
export const ModernCallToolResultSchema = z
  .object({
    ...completeResult,
    content: z.array(ContentBlockSchema),
    structuredContent: JsonValueSchema.optional(),
    isError: z.boolean().optional(),
  })
  .loose();
export type ModernCallToolResult = z.infer<typeof ModernCallToolResultSchema>;

/** A finished `prompts/get`. */
export const ModernGetPromptResultSchema = z
  .object({
    ...completeResult,
    description: z.string().optional(),
    messages: z.array(PromptMessageSchema),
  })
  .loose();
export type ModernGetPromptResult = z.infer<typeof ModernGetPromptResultSchema>;

/** A finished `resources/read`. */
export const ModernReadResourceResultSchema = z
  .object({ ...cacheable, contents: z.array(ResourceContentsSchema) })
  .loose();
export type ModernReadResourceResult = z.infer<typeof ModernReadResourceResultSchema>;

/** `completion/complete`. */
export const ModernCompleteResultSchema = z
  .object({ ...completeResult, completion: CompletionSchema })
  .loose();
export type ModernCompleteResult = z.infer<typeof ModernCompleteResultSchema>;

/** The result that closes a `subscriptions/listen` stream. */
export const SubscriptionsListenResultSchema = z
  .object({
    resultType: z.literal('complete'),
    _meta: z
      .object({
        [MetaKey.subscriptionId]: RequestIdSchema,
        [MetaKey.serverInfo]: ImplementationSchema.optional(),
      })
      .loose(),
  })
  .loose();
export type SubscriptionsListenResult = z.infer<typeof SubscriptionsListenResultSchema>;

/** One input request of an `input_required` result: a client request without id or jsonrpc. */
export const InputRequestSchema = z.discriminatedUnion('method', [
  z.object({ method: z.literal('elicitation/create'), params: ElicitRequestParamsSchema }).loose(),
  z
    .object({
      method: z.literal('sampling/createMessage'),
      params: CreateMessageRequestParamsSchema,
    })
    .loose(),
  z
    .object({ method: z.literal('roots/list'), params: ListRootsRequestParamsSchema.optional() })
    .loose(),
]);
export type WireInputRequest = z.infer<typeof InputRequestSchema>;

/** The input requests of a round, by key. */
export const InputRequestsSchema = z.record(z.string(), InputRequestSchema);
export type InputRequests = z.infer<typeof InputRequestsSchema>;

/**
 * `input_required`: the client must retry with `inputResponses` for every key of `inputRequests`
 * and `requestState` echoed unchanged. A round asks for something or carries a state (or both).
 */
export const InputRequiredResultSchema = z
  .object({
    _meta: ResultMetaObjectSchema.optional(),
    resultType: z.literal('input_required'),
    inputRequests: InputRequestsSchema.optional(),
    requestState: z.string().optional(),
  })
  .loose()
  .refine(
    (result) =>
      Object.keys(result.inputRequests ?? {}).length > 0 || result.requestState !== undefined,
    { error: 'an input_required result needs input requests or a request state' },
  );
export type InputRequiredResult = z.infer<typeof InputRequiredResultSchema>;

/** What `tools/call` answers: a finished result or a round asking for input. */
export const ModernToolRoundResultSchema = z.discriminatedUnion('resultType', [
  ModernCallToolResultSchema,
  InputRequiredResultSchema,
]);
export type ModernToolRoundResult = z.infer<typeof ModernToolRoundResultSchema>;

/** What `prompts/get` answers: a finished result or a round asking for input. */
export const ModernPromptRoundResultSchema = z.discriminatedUnion('resultType', [
  ModernGetPromptResultSchema,
  InputRequiredResultSchema,
]);
export type ModernPromptRoundResult = z.infer<typeof ModernPromptRoundResultSchema>;

/** What `resources/read` answers: a finished result or a round asking for input. */
export const ModernResourceRoundResultSchema = z.discriminatedUnion('resultType', [
  ModernReadResourceResultSchema,
  InputRequiredResultSchema,
]);
export type ModernResourceRoundResult = z.infer<typeof ModernResourceRoundResultSchema>;
