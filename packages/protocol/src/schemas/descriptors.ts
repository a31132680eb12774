import { z } from 'zod';
import {
  AnnotationsSchema,
  IconSchema,
  LooseObjectSchema,
  MetaObjectSchema,
  RoleSchema,
} from './common.js';
import { ContentBlockSchema } from './content.js';

/**
 * What a server lists: tools, prompts, resources and resource templates, plus the references that
 * `completion/complete` points at and the messages a prompt is made of.
 */

/** Hints about a tool's behaviour; never to be trusted from an untrusted server. */
export const ToolAnnotationsSchema = z
  .object({
    title: z.string().optional(),
    readOnlyHint: z.boolean().optional(),
    destructiveHint: z.boolean().optional(),
    idempotentHint: z.boolean().optional(),
    openWorldHint: z.boolean().optional(),
  })
  .loose();
export type ToolAnnotations = z.infer<typeof ToolAnnotationsSchema>;

/** A tool's input schema: a JSON Schema whose `type` is `object`. */
export const ToolInputSchemaSchema = z.object({ type: z.literal('object') }).loose();

/** A tool, as `tools/list` describes it (2026-07-28 allows any JSON Schema as output schema). */
export const ToolSchema = z
  .object({
    name: z.string(),
    title: z.string().optional(),
    description: z.string().optional(),
    inputSchema: ToolInputSchemaSchema,
    outputSchema: LooseObjectSchema.optional(),
    annotations: ToolAnnotationsSchema.optional(),
    icons: z.array(IconSchema).optional(),
    _meta: MetaObjectSchema.optional(),
  })
  .loose();
export type Tool = z.infer<typeof ToolSchema>;

/** A tool as the legacy revisions describe it: an output schema must be of `type` `object`. */
export const LegacyToolSchema = ToolSchema.extend({
  outputSchema: z
    .object({ type: z.literal('object') })
    .loose()
    .optional(),
});
export type LegacyTool = z.infer<typeof LegacyToolSchema>;

/** One argument of a prompt template. */
export const PromptArgumentSchema = z
  .object({
    name: z.string(),
    title: z.string().optional(),
    description: z.string().optional(),
    required: z.boolean().optional(),
  })
  .loose();
export type PromptArgument = z.infer<typeof PromptArgumentSchema>;

/** A prompt, as `prompts/list` describes it. */
export const PromptSchema = z
  .object({
    name: z.string(),
    title: z.string().optional(),
    description: z.string().optional(),
    arguments: z.array(PromptArgumentSchema).optional(),
    icons: z.array(IconSchema).optional(),
    _meta: MetaObjectSchema.optional(),
  })
  .loose();
export type Prompt = z.infer<typeof PromptSchema>;

/** One message of a prompt (`PromptMessage`). */
export const PromptMessageSchema = z
  .object({ role: RoleSchema, content: ContentBlockSchema })
  .loose();
export type WirePromptMessage = z.infer<typeof PromptMessageSchema>;

/** A resource, as `resources/list` describes it. */
export const ResourceSchema = z
  .object({
    uri: z.string(),
    name: z.string(),
    title: z.string().optional(),
    description: z.string().optional(),
    mimeType: z.string().optional(),
    size: z.int().optional(),
    annotations: AnnotationsSchema.optional(),
    icons: z.array(IconSchema).optional(),
    _meta: MetaObjectSchema.optional(),
  })
  .loose();
export type Resource = z.infer<typeof ResourceSchema>;

/** A resource template (RFC 6570 URI template), as `resources/templates/list` describes it. */
export const ResourceTemplateSchema = z
  .object({
    uriTemplate: z.string(),
    name: z.string(),
    title: z.string().optional(),
    description: z.string().optional(),
    mimeType: z.string().optional(),
    annotations: AnnotationsSchema.optional(),
    icons: z.array(IconSchema).optional(),
    _meta: MetaObjectSchema.optional(),
  })
  .loose();
export type ResourceTemplate = z.infer<typeof ResourceTemplateSchema>;

/** `ref/prompt`: completion of a prompt argument. */
export const PromptReferenceSchema = z
  .object({ type: z.literal('ref/prompt'), name: z.string(), title: z.string().optional() })
  .loose();
export type PromptReference = z.infer<typeof PromptReferenceSchema>;

/** `ref/resource`: completion of a resource template variable. */
export const ResourceTemplateReferenceSchema = z
  .object({ type: z.literal('ref/resource'), uri: z.string() })
  .loose();
export type ResourceTemplateReference = z.infer<typeof ResourceTemplateReferenceSchema>;

/** What `completion/complete` completes an argument of. */
export const CompletionReferenceSchema = z.discriminatedUnion('type', [
  PromptReferenceSchema,
  ResourceTemplateReferenceSchema,
]);
export type CompletionReference = z.infer<typeof CompletionReferenceSchema>;

/** The argument being completed. */
export const CompletionArgumentSchema = z.object({ name: z.string(), value: z.string() }).loose();

/** Already resolved arguments that a completion may depend on. */
export const CompletionContextSchema = z
  .object({ arguments: z.record(z.string(), z.string()).optional() })
  .loose();

/** The `completion` member of a `completion/complete` result: at most 100 values. */
export const CompletionSchema = z
  .object({
    values: z.array(z.string()).max(100),
    total: z.int().optional(),
    hasMore: z.boolean().optional(),
  })
  .loose();
export type Completion = z.infer<typeof CompletionSchema>;
