import { z } from 'zod';
import { MetaKey } from '../revisions.js';
import { ImplementationSchema, LoggingLevelSchema, ProgressTokenSchema } from './common.js';
import { ClientCapabilitiesSchema } from './capabilities.js';
import {
  CompletionArgumentSchema,
  CompletionContextSchema,
  CompletionReferenceSchema,
} from './descriptors.js';
import { ElicitResultSchema } from './elicitation.js';
import { SubscriptionFilterSchema } from './notifications.js';
import { CreateMessageResultSchema, ListRootsResultSchema } from './sampling.js';

/**
 * Request params of the modern era (2026-07-28). There is no handshake: every request carries the
 * revision and the client's capabilities in `params._meta`, so `_meta` is required everywhere.
 * `tools/call`, `prompts/get` and `resources/read` may be retries of an `input_required` round,
 * carrying `inputResponses` and the echoed `requestState`.
 */

/** The `_meta` of every modern request. */
export const RequestMetaObjectSchema = z
  .object({
    [MetaKey.protocolVersion]: z.string(),
    [MetaKey.clientCapabilities]: ClientCapabilitiesSchema,
    [MetaKey.clientInfo]: ImplementationSchema.optional(),
    [MetaKey.logLevel]: LoggingLevelSchema.optional(),
    progressToken: ProgressTokenSchema.optional(),
  })
  .loose();
export type RequestMetaObject = z.infer<typeof RequestMetaObjectSchema>;

const meta = { _meta: RequestMetaObjectSchema } as const;

/** `server/discover` (and any request without members of its own). */
export const ModernRequestParamsSchema = z.object(meta).loose();
export type ModernRequestParams = z.infer<typeof ModernRequestParamsSchema>;

/** `tools/list`, `prompts/list`, `resources/list`, `resources/templates/list`. */
export const ModernPaginatedRequestParamsSchema = z
  .object({ ...meta, cursor: z.string().optional() })
  .loose();
export type ModernPaginatedRequestParams = z.infer<typeof ModernPaginatedRequestParamsSchema>;

/** A client's answer to one input request: an elicitation, sampling or roots result. */
export const InputResponseSchema = z.union([
  CreateMessageResultSchema,
  ListRootsResultSchema,
  ElicitResultSchema,
]);
export type InputResponse = z.infer<typeof InputResponseSchema>;

/** The answers of a retry, keyed like the `inputRequests` they answer. */
export const InputResponsesSchema = z.record(z.string(), InputResponseSchema);
export type InputResponses = z.infer<typeof InputResponsesSchema>;

/**
 * A retry's `inputResponses` as a map, also when it came as Logtalk's `mcp_server` accepts them:
 * a list of answers each naming its `key` (`[{ key, action, content }]`). Such a list, of objects
 * with distinct string keys, is normalised to the map; anything else, an empty list included (it
 * answers nothing), is left for the map schema to refuse.
 */
const RetryInputResponsesSchema = z.preprocess(answersByKey, InputResponsesSchema);

function answersByKey(value: unknown): unknown {
  if (!Array.isArray(value) || value.length === 0) return value;
  // Built from entries, so that a key such as `__proto__` is a member like any other.
  const byKey = new Map<string, unknown>();
  for (const entry of value as unknown[]) {
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return value;
    const { key, ...answer } = entry as Record<string, unknown>;
    if (typeof key !== 'string' || byKey.has(key)) return value;
    byKey.set(key, answer);
  }
  return Object.fromEntries(byKey);
}

/** The members a retry of an `input_required` round adds to its original params. */
const retry = {
  inputResponses: RetryInputResponsesSchema.optional(),
  requestState: z.string().optional(),
} as const;

/** `tools/call`, possibly a retry. */
export const ModernCallToolRequestParamsSchema = z
  .object({
    ...meta,
    ...retry,
    name: z.string(),
    arguments: z.record(z.string(), z.unknown()).optional(),
  })
  .loose();
export type ModernCallToolRequestParams = z.infer<typeof ModernCallToolRequestParamsSchema>;

/** `prompts/get`, possibly a retry. */
export const ModernGetPromptRequestParamsSchema = z
  .object({
    ...meta,
    ...retry,
    name: z.string(),
    arguments: z.record(z.string(), z.string()).optional(),
  })
  .loose();
export type ModernGetPromptRequestParams = z.infer<typeof ModernGetPromptRequestParamsSchema>;

/** `resources/read`, possibly a retry. */
export const ModernReadResourceRequestParamsSchema = z
  .object({ ...meta, ...retry, uri: z.string() })
  .loose();
export type ModernReadResourceRequestParams = z.infer<typeof ModernReadResourceRequestParamsSchema>;

/** `completion/complete`. */
export const ModernCompleteRequestParamsSchema = z
  .object({
    ...meta,
    ref: CompletionReferenceSchema,
    argument: CompletionArgumentSchema,
    context: CompletionContextSchema.optional(),
  })
  .loose();
export type ModernCompleteRequestParams = z.infer<typeof ModernCompleteRequestParamsSchema>;

/** `subscriptions/listen`: open a stream of list-changed and resource-updated notifications. */
export const SubscriptionsListenRequestParamsSchema = z
  .object({ ...meta, notifications: SubscriptionFilterSchema })
  .loose();
export type SubscriptionsListenRequestParams = z.infer<
  typeof SubscriptionsListenRequestParamsSchema
>;
