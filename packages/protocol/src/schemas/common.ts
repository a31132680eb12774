import { z } from 'zod';
import type { Json, JsonObject } from '../vocabulary.js';

/**
 * Building blocks shared by every revision: JSON values, ids, `_meta`, implementation info, icons
 * and annotations. Objects are loose (unknown members pass through, as the spec allows everywhere);
 * required members and their types are checked.
 */

/** Any JSON value. */
export const JsonValueSchema: z.ZodType<Json> = z.json();

/** A JSON object. */
export const JsonObjectSchema: z.ZodType<JsonObject> = z.record(z.string(), JsonValueSchema);

/** A free-form object (such as a capability's settings or a tool's arguments). */
export const LooseObjectSchema = z.object({}).loose();
export type LooseObject = z.infer<typeof LooseObjectSchema>;

/** A `_meta` object without reserved members. */
export const MetaObjectSchema = LooseObjectSchema;
export type MetaObject = LooseObject;

/** A JSON-RPC request id: a string or a (safe) integer. */
export const RequestIdSchema = z.union([z.string(), z.int()]);

/** A progress token: a string or a (safe) integer. */
export const ProgressTokenSchema = z.union([z.string(), z.int()]);
export type ProgressToken = z.infer<typeof ProgressTokenSchema>;

/** An opaque pagination cursor. */
export const CursorSchema = z.string();

/** The sender of a message: `user` or `assistant`. */
export const RoleSchema = z.enum(['user', 'assistant']);

/** Log levels, as in RFC 5424, from least to most severe. */
export const LOGGING_LEVELS = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
] as const;
export const LoggingLevelSchema = z.enum(LOGGING_LEVELS);
export type LoggingLevel = z.infer<typeof LoggingLevelSchema>;

/** An icon (2025-11-25 and later). */
export const IconSchema = z
  .object({
    src: z.string(),
    mimeType: z.string().optional(),
    sizes: z.array(z.string()).optional(),
    theme: z.enum(['light', 'dark']).optional(),
  })
  .loose();
export type Icon = z.infer<typeof IconSchema>;

/** The name and version of a client or server implementation. */
export const ImplementationSchema = z
  .object({
    name: z.string(),
    version: z.string(),
    title: z.string().optional(),
    description: z.string().optional(),
    icons: z.array(IconSchema).optional(),
    websiteUrl: z.string().optional(),
  })
  .loose();
export type Implementation = z.infer<typeof ImplementationSchema>;

/** Hints about how a client should use or show an object. */
export const AnnotationsSchema = z
  .object({
    audience: z.array(RoleSchema).optional(),
    priority: z.number().min(0).max(1).optional(),
    lastModified: z.string().optional(),
  })
  .loose();
export type WireAnnotations = z.infer<typeof AnnotationsSchema>;

/** Params of a notification without members of its own (such as `notifications/initialized`). */
export const NotificationParamsSchema = z.object({ _meta: MetaObjectSchema.optional() }).loose();
export type NotificationParams = z.infer<typeof NotificationParamsSchema>;
