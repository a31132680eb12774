import { z } from 'zod';
import {
  AnnotationsSchema,
  IconSchema,
  JsonValueSchema,
  LooseObjectSchema,
  MetaObjectSchema,
} from './common.js';

/**
 * Content blocks (tool results, prompt messages, sampling messages) and resource contents, as every
 * revision writes them. Spec names that the vocabulary already uses for its own forms get a `Block`
 * suffix here (`TextContentBlock` is the wire form of the vocabulary's `text(T)`).
 */

/** The text of a resource (`TextResourceContents`). */
export const TextResourceContentsSchema = z
  .object({
    uri: z.string(),
    mimeType: z.string().optional(),
    text: z.string(),
    _meta: MetaObjectSchema.optional(),
  })
  .loose();
export type TextResourceContents = z.infer<typeof TextResourceContentsSchema>;

/** The base64 bytes of a resource (`BlobResourceContents`). */
export const BlobResourceContentsSchema = z
  .object({
    uri: z.string(),
    mimeType: z.string().optional(),
    blob: z.string(),
    _meta: MetaObjectSchema.optional(),
  })
  .loose();
export type BlobResourceContents = z.infer<typeof BlobResourceContentsSchema>;

/** The contents of a resource: text or blob. */
export const ResourceContentsSchema = z.union([
  TextResourceContentsSchema,
  BlobResourceContentsSchema,
]);
export type ResourceContents = z.infer<typeof ResourceContentsSchema>;

/** `TextContent`. */
export const TextContentBlockSchema = z
  .object({
    type: z.literal('text'),
    text: z.string(),
    annotations: AnnotationsSchema.optional(),
    _meta: MetaObjectSchema.optional(),
  })
  .loose();
export type TextContentBlock = z.infer<typeof TextContentBlockSchema>;

/** `ImageContent`: base64 image data. */
export const ImageContentBlockSchema = z
  .object({
    type: z.literal('image'),
    data: z.string(),
    mimeType: z.string(),
    annotations: AnnotationsSchema.optional(),
    _meta: MetaObjectSchema.optional(),
  })
  .loose();
export type ImageContentBlock = z.infer<typeof ImageContentBlockSchema>;

/** `AudioContent`: base64 audio data. */
export const AudioContentBlockSchema = z
  .object({
    type: z.literal('audio'),
    data: z.string(),
    mimeType: z.string(),
    annotations: AnnotationsSchema.optional(),
    _meta: MetaObjectSchema.optional(),
  })
  .loose();
export type AudioContentBlock = z.infer<typeof AudioContentBlockSchema>;

/** `ResourceLink`: a link to a resource the client may read. */
export const ResourceLinkBlockSchema = z
  .object({
    type: z.literal('resource_link'),
    uri: z.string(),
    name: z.string(),
    title: z.string().optional(),
    description: z.string().optional(),
    mimeType: z.string().optional(),
    size: z.int().optional(),
    icons: z.array(IconSchema).optional(),
    annotations: AnnotationsSchema.optional(),
    _meta: MetaObjectSchema.optional(),
  })
  .loose();
export type ResourceLinkBlock = z.infer<typeof ResourceLinkBlockSchema>;

/** `EmbeddedResource`: resource contents inline. */
export const EmbeddedResourceBlockSchema = z
  .object({
    type: z.literal('resource'),
    resource: ResourceContentsSchema,
    annotations: AnnotationsSchema.optional(),
    _meta: MetaObjectSchema.optional(),
  })
  .loose();
export type EmbeddedResourceBlock = z.infer<typeof EmbeddedResourceBlockSchema>;

/** `ContentBlock`: what tool results and prompt messages are made of. */
export const ContentBlockSchema = z.discriminatedUnion('type', [
  TextContentBlockSchema,
  ImageContentBlockSchema,
  AudioContentBlockSchema,
  ResourceLinkBlockSchema,
  EmbeddedResourceBlockSchema,
]);
export type ContentBlock = z.infer<typeof ContentBlockSchema>;

/** `ToolUseContent`: a model's request to call a tool, inside sampling (2025-11-25 and later). */
export const ToolUseContentBlockSchema = z
  .object({
    type: z.literal('tool_use'),
    id: z.string(),
    name: z.string(),
    input: LooseObjectSchema,
    _meta: MetaObjectSchema.optional(),
  })
  .loose();
export type ToolUseContentBlock = z.infer<typeof ToolUseContentBlockSchema>;

/** `ToolResultContent`: the result of a tool use, inside sampling (2025-11-25 and later). */
export const ToolResultContentBlockSchema = z
  .object({
    type: z.literal('tool_result'),
    toolUseId: z.string(),
    content: z.array(ContentBlockSchema),
    structuredContent: JsonValueSchema.optional(),
    isError: z.boolean().optional(),
    _meta: MetaObjectSchema.optional(),
  })
  .loose();
export type ToolResultContentBlock = z.infer<typeof ToolResultContentBlockSchema>;

/** `SamplingMessageContentBlock`: what a sampling message is made of. */
export const SamplingContentBlockSchema = z.discriminatedUnion('type', [
  TextContentBlockSchema,
  ImageContentBlockSchema,
  AudioContentBlockSchema,
  ToolUseContentBlockSchema,
  ToolResultContentBlockSchema,
]);
export type SamplingContentBlock = z.infer<typeof SamplingContentBlockSchema>;
