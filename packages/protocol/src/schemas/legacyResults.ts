import { z } from 'zod';
import { ImplementationSchema, MetaObjectSchema } from './common.js';
import { ServerCapabilitiesSchema } from './capabilities.js';
import { ContentBlockSchema, ResourceContentsSchema } from './content.js';
import {
  CompletionSchema,
  LegacyToolSchema,
  PromptMessageSchema,
  PromptSchema,
  ResourceSchema,
  ResourceTemplateSchema,
} from './descriptors.js';

/**
 * Results a server sends to a legacy client. Besides the spec's shapes they refuse the members of
 * the modern era (`resultType`, `ttlMs`, `cacheScope`): a legacy peer must never see them.
 */

function modernOnly(member: string) {
  return z
    .never({ error: `${member} belongs to 2026-07-28; a legacy result never carries it` })
    .optional();
}

const legacyResult = {
  _meta: MetaObjectSchema.optional(),
  resultType: modernOnly('resultType'),
} as const;

const legacyListResult = {
  ...legacyResult,
  nextCursor: z.string().optional(),
  ttlMs: modernOnly('ttlMs'),
  cacheScope: modernOnly('cacheScope'),
} as const;

/** The answer to `initialize`: negotiated revision, capabilities and identity. */
export const InitializeResultSchema = z
  .object({
    ...legacyResult,
    protocolVersion: z.string(),
    capabilities: ServerCapabilitiesSchema,
    serverInfo: ImplementationSchema,
    instructions: z.string().optional(),
  })
  .loose();
export type InitializeResult = z.infer<typeof InitializeResultSchema>;

/** The answer to `ping`, `logging/setLevel`, `resources/subscribe` and `resources/unsubscribe`. */
export const LegacyEmptyResultSchema = z.object(legacyResult).loose();
export type LegacyEmptyResult = z.infer<typeof LegacyEmptyResultSchema>;

/** `tools/list`. */
export const LegacyListToolsResultSchema = z
  .object({ ...legacyListResult, tools: z.array(LegacyToolSchema) })
  .loose();
export type LegacyListToolsResult = z.infer<typeof LegacyListToolsResultSchema>;

/** `tools/call`: structured content must be an object in the legacy era. */
export const LegacyCallToolResultSchema = z
  .object({
    ...legacyResult,
    content: z.array(ContentBlockSchema),
    structuredContent: z.record(z.string(), z.unknown()).optional(),
    isError: z.boolean().optional(),
  })
  .loose();
export type LegacyCallToolResult = z.infer<typeof LegacyCallToolResultSchema>;

/** `prompts/list`. */
export const LegacyListPromptsResultSchema = z
  .object({ ...legacyListResult, prompts: z.array(PromptSchema) })
  .loose();
export type LegacyListPromptsResult = z.infer<typeof LegacyListPromptsResultSchema>;

/** `prompts/get`. */
export const LegacyGetPromptResultSchema = z
  .object({
    ...legacyResult,
    description: z.string().optional(),
    messages: z.array(PromptMessageSchema),
  })
  .loose();
export type LegacyGetPromptResult = z.infer<typeof LegacyGetPromptResultSchema>;

/** `resources/list`. */
export const LegacyListResourcesResultSchema = z
  .object({ ...legacyListResult, resources: z.array(ResourceSchema) })
  .loose();
export type LegacyListResourcesResult = z.infer<typeof LegacyListResourcesResultSchema>;

/** `resources/templates/list`. */
export const LegacyListResourceTemplatesResultSchema = z
  .object({ ...legacyListResult, resourceTemplates: z.array(ResourceTemplateSchema) })
  .loose();
export type LegacyListResourceTemplatesResult = z.infer<
  typeof LegacyListResourceTemplatesResultSchema
>;

/** `resources/read`. */
export const LegacyReadResourceResultSchema = z
  .object({
    ...legacyResult,
    ttlMs: modernOnly('ttlMs'),
    cacheScope: modernOnly('cacheScope'),
    contents: z.array(ResourceContentsSchema),
  })
  .loose();
export type LegacyReadResourceResult = z.infer<typeof LegacyReadResourceResultSchema>;

/** `completion/complete`. */
export const LegacyCompleteResultSchema = z
  .object({ ...legacyResult, completion: CompletionSchema })
  .loose();
export type LegacyCompleteResult = z.infer<typeof LegacyCompleteResultSchema>;
