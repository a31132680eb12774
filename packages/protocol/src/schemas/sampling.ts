import { z } from 'zod';
import { LooseObjectSchema, MetaObjectSchema, RoleSchema } from './common.js';
import { SamplingContentBlockSchema } from './content.js';
import { ToolSchema } from './descriptors.js';

/**
 * Asking the client: sampling (`sampling/createMessage`, with tool use from 2025-11-25) and roots
 * (`roots/list`). A legacy server sends these as requests; a modern one as MRTR input requests.
 */

/** A hint towards a model name. */
export const ModelHintSchema = z.object({ name: z.string().optional() }).loose();

const priority = z.number().min(0).max(1).optional();

/** What the server prefers when the client picks a model. */
export const ModelPreferencesSchema = z
  .object({
    hints: z.array(ModelHintSchema).optional(),
    costPriority: priority,
    speedPriority: priority,
    intelligencePriority: priority,
  })
  .loose();
export type ModelPreferences = z.infer<typeof ModelPreferencesSchema>;

/** Whether and how the model may use the offered tools. */
export const ToolChoiceSchema = z
  .object({ mode: z.enum(['auto', 'required', 'none']).optional() })
  .loose();
export type ToolChoice = z.infer<typeof ToolChoiceSchema>;

/** One message of a sampling conversation: one content block or a list of them. */
export const SamplingMessageSchema = z
  .object({
    role: RoleSchema,
    content: z.union([SamplingContentBlockSchema, z.array(SamplingContentBlockSchema)]),
    _meta: MetaObjectSchema.optional(),
  })
  .loose();
export type WireSamplingMessage = z.infer<typeof SamplingMessageSchema>;

/** `sampling/createMessage` params. */
export const CreateMessageRequestParamsSchema = z
  .object({
    messages: z.array(SamplingMessageSchema),
    maxTokens: z.int(),
    modelPreferences: ModelPreferencesSchema.optional(),
    systemPrompt: z.string().optional(),
    includeContext: z.enum(['none', 'thisServer', 'allServers']).optional(),
    temperature: z.number().optional(),
    stopSequences: z.array(z.string()).optional(),
    metadata: LooseObjectSchema.optional(),
    tools: z.array(ToolSchema).optional(),
    toolChoice: ToolChoiceSchema.optional(),
    _meta: MetaObjectSchema.optional(),
  })
  .loose();
export type CreateMessageRequestParams = z.infer<typeof CreateMessageRequestParamsSchema>;

/** The client's sampled message. */
export const CreateMessageResultSchema = z
  .object({
    role: RoleSchema,
    content: z.union([SamplingContentBlockSchema, z.array(SamplingContentBlockSchema)]),
    model: z.string(),
    stopReason: z.string().optional(),
    _meta: MetaObjectSchema.optional(),
  })
  .loose();
export type CreateMessageResult = z.infer<typeof CreateMessageResultSchema>;

/** A root: a directory or file the client lets the server work in. */
export const RootSchema = z
  .object({ uri: z.string(), name: z.string().optional(), _meta: MetaObjectSchema.optional() })
  .loose();
export type Root = z.infer<typeof RootSchema>;

/** `roots/list` params. */
export const ListRootsRequestParamsSchema = z
  .object({ _meta: MetaObjectSchema.optional() })
  .loose();

/** The client's roots. */
export const ListRootsResultSchema = z
  .object({ roots: z.array(RootSchema), _meta: MetaObjectSchema.optional() })
  .loose();
export type ListRootsResult = z.infer<typeof ListRootsResultSchema>;
