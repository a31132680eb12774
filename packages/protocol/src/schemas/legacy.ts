import { z } from 'zod';
import {
  ImplementationSchema,
  LoggingLevelSchema,
  LooseObjectSchema,
  NotificationParamsSchema,
  ProgressTokenSchema,
  RequestIdSchema,
} from './common.js';
import { ClientCapabilitiesSchema } from './capabilities.js';
import {
  CompletionArgumentSchema,
  CompletionContextSchema,
  CompletionReferenceSchema,
} from './descriptors.js';

/**
 * Request and notification params of the legacy era (2025-06-18 and 2025-11-25; 2025-03-26 reads
 * the same): what a client sends inside an `initialize`d session. One schema serves both
 * revisions: members added by 2025-11-25 (such as `task`) are optional and pass through.
 */

/** The `_meta` of a legacy request: free-form, with an optional progress token. */
export const LegacyRequestMetaSchema = z
  .object({ progressToken: ProgressTokenSchema.optional() })
  .loose();
export type LegacyRequestMeta = z.infer<typeof LegacyRequestMetaSchema>;

const meta = { _meta: LegacyRequestMetaSchema.optional() };

/** Params of a request without members of its own (`ping`). */
export const LegacyRequestParamsSchema = z.object(meta).loose();
export type LegacyRequestParams = z.infer<typeof LegacyRequestParamsSchema>;

/** `initialize`: the client's preferred revision, capabilities and identity. */
export const InitializeRequestParamsSchema = z
  .object({
    ...meta,
    protocolVersion: z.string(),
    capabilities: ClientCapabilitiesSchema,
    clientInfo: ImplementationSchema,
  })
  .loose();
export type InitializeRequestParams = z.infer<typeof InitializeRequestParamsSchema>;

/** `tools/list`, `prompts/list`, `resources/list`, `resources/templates/list`. */
export const LegacyPaginatedRequestParamsSchema = z
  .object({ ...meta, cursor: z.string().optional() })
  .loose();
export type LegacyPaginatedRequestParams = z.infer<typeof LegacyPaginatedRequestParamsSchema>;

/** `tools/call`. `task` (2025-11-25) asks for task-augmented execution. */
export const LegacyCallToolRequestParamsSchema = z
  .object({
    ...meta,
    name: z.string(),
    arguments: z.record(z.string(), z.unknown()).optional(),
    task: z.object({ ttl: z.int().optional() }).loose().optional(),
  })
  .loose();
export type LegacyCallToolRequestParams = z.infer<typeof LegacyCallToolRequestParamsSchema>;

/** `prompts/get`: prompt arguments are strings. */
export const LegacyGetPromptRequestParamsSchema = z
  .object({ ...meta, name: z.string(), arguments: z.record(z.string(), z.string()).optional() })
  .loose();
export type LegacyGetPromptRequestParams = z.infer<typeof LegacyGetPromptRequestParamsSchema>;

/** `resources/read`, `resources/subscribe` and `resources/unsubscribe`. */
export const LegacyResourceRequestParamsSchema = z.object({ ...meta, uri: z.string() }).loose();
export type LegacyResourceRequestParams = z.infer<typeof LegacyResourceRequestParamsSchema>;

/** `completion/complete`. */
export const LegacyCompleteRequestParamsSchema = z
  .object({
    ...meta,
    ref: CompletionReferenceSchema,
    argument: CompletionArgumentSchema,
    context: CompletionContextSchema.optional(),
  })
  .loose();
export type LegacyCompleteRequestParams = z.infer<typeof LegacyCompleteRequestParamsSchema>;

/** `logging/setLevel`. */
export const SetLevelRequestParamsSchema = z.object({ ...meta, level: LoggingLevelSchema }).loose();
export type SetLevelRequestParams = z.infer<typeof SetLevelRequestParamsSchema>;

/**
 * `notifications/cancelled` in the legacy era. 2025-06-18 requires `requestId`; 2025-11-25 made it
 * optional (a task is cancelled through `tasks/cancel`), so it is optional here.
 */
export const LegacyCancelledNotificationParamsSchema = z
  .object({
    _meta: LooseObjectSchema.optional(),
    requestId: RequestIdSchema.optional(),
    reason: z.string().optional(),
  })
  .loose();
export type LegacyCancelledNotificationParams = z.infer<
  typeof LegacyCancelledNotificationParamsSchema
>;

/** `notifications/progress`: sent by either side about a request that carried a progress token. */
export const ProgressNotificationParamsSchema = z
  .object({
    _meta: LooseObjectSchema.optional(),
    progressToken: ProgressTokenSchema,
    progress: z.number(),
    total: z.number().optional(),
    message: z.string().optional(),
  })
  .loose();
export type ProgressNotificationParams = z.infer<typeof ProgressNotificationParamsSchema>;

/** `notifications/initialized` and `notifications/roots/list_changed` carry only `_meta`. */
export const InitializedNotificationParamsSchema = NotificationParamsSchema;
export const RootsListChangedNotificationParamsSchema = NotificationParamsSchema;
