import { z } from 'zod';
import { MetaObjectSchema } from './common.js';

/**
 * Elicitation: the flat form schemas a server may ask a user to fill (`PrimitiveSchemaDefinition`
 * and its enum kinds), the `elicitation/create` params of both modes, and the user's answer.
 * Names follow the spec, whose field schemas already end in `Schema`.
 */

const described = {
  title: z.string().optional(),
  description: z.string().optional(),
};

/** A text field. */
export const StringSchemaSchema = z
  .object({
    type: z.literal('string'),
    ...described,
    minLength: z.int().optional(),
    maxLength: z.int().optional(),
    format: z.enum(['email', 'uri', 'date', 'date-time']).optional(),
    default: z.string().optional(),
  })
  .loose();
export type StringSchema = z.infer<typeof StringSchemaSchema>;

/** A number or integer field. */
export const NumberSchemaSchema = z
  .object({
    type: z.enum(['number', 'integer']),
    ...described,
    minimum: z.number().optional(),
    maximum: z.number().optional(),
    default: z.number().optional(),
  })
  .loose();
export type NumberSchema = z.infer<typeof NumberSchemaSchema>;

/** A yes / no field. */
export const BooleanSchemaSchema = z
  .object({ type: z.literal('boolean'), ...described, default: z.boolean().optional() })
  .loose();
export type BooleanSchema = z.infer<typeof BooleanSchemaSchema>;

const titledOption = z.object({ const: z.string(), title: z.string() }).loose();

/** Choose one of several strings. */
export const UntitledSingleSelectEnumSchemaSchema = z
  .object({
    type: z.literal('string'),
    ...described,
    enum: z.array(z.string()),
    default: z.string().optional(),
  })
  .loose();
export type UntitledSingleSelectEnumSchema = z.infer<typeof UntitledSingleSelectEnumSchemaSchema>;

/** Choose one of several strings, each with a display title. */
export const TitledSingleSelectEnumSchemaSchema = z
  .object({
    type: z.literal('string'),
    ...described,
    oneOf: z.array(titledOption),
    default: z.string().optional(),
  })
  .loose();
export type TitledSingleSelectEnumSchema = z.infer<typeof TitledSingleSelectEnumSchemaSchema>;

/** Choose several of several strings. */
export const UntitledMultiSelectEnumSchemaSchema = z
  .object({
    type: z.literal('array'),
    ...described,
    minItems: z.int().optional(),
    maxItems: z.int().optional(),
    items: z.object({ type: z.literal('string'), enum: z.array(z.string()) }).loose(),
    default: z.array(z.string()).optional(),
  })
  .loose();
export type UntitledMultiSelectEnumSchema = z.infer<typeof UntitledMultiSelectEnumSchemaSchema>;

/** Choose several of several strings, each with a display title. */
export const TitledMultiSelectEnumSchemaSchema = z
  .object({
    type: z.literal('array'),
    ...described,
    minItems: z.int().optional(),
    maxItems: z.int().optional(),
    items: z.object({ anyOf: z.array(titledOption) }).loose(),
    default: z.array(z.string()).optional(),
  })
  .loose();
export type TitledMultiSelectEnumSchema = z.infer<typeof TitledMultiSelectEnumSchemaSchema>;

/** The 2025-06-18 enum: `enum` with parallel display names in `enumNames` (deprecated). */
export const LegacyTitledEnumSchemaSchema = z
  .object({
    type: z.literal('string'),
    ...described,
    enum: z.array(z.string()),
    enumNames: z.array(z.string()).optional(),
    default: z.string().optional(),
  })
  .loose();
export type LegacyTitledEnumSchema = z.infer<typeof LegacyTitledEnumSchemaSchema>;

/** Every enum kind. */
export const EnumSchemaSchema = z.union([
  TitledSingleSelectEnumSchemaSchema,
  UntitledSingleSelectEnumSchemaSchema,
  LegacyTitledEnumSchemaSchema,
  TitledMultiSelectEnumSchemaSchema,
  UntitledMultiSelectEnumSchemaSchema,
]);
export type EnumSchema = z.infer<typeof EnumSchemaSchema>;

/** One field of an elicitation form. Enum kinds come first: a plain string field matches any. */
export const PrimitiveSchemaDefinitionSchema = z.union([
  EnumSchemaSchema,
  StringSchemaSchema,
  NumberSchemaSchema,
  BooleanSchemaSchema,
]);
export type PrimitiveSchemaDefinition = z.infer<typeof PrimitiveSchemaDefinitionSchema>;

/** The form of a form-mode elicitation: an object schema of primitive fields. */
export const RequestedSchemaSchema = z
  .object({
    $schema: z.string().optional(),
    type: z.literal('object'),
    properties: z.record(z.string(), PrimitiveSchemaDefinitionSchema),
    required: z.array(z.string()).optional(),
  })
  .loose();
export type RequestedSchema = z.infer<typeof RequestedSchemaSchema>;

/** `elicitation/create` in form mode (`mode` may be omitted). */
export const ElicitRequestFormParamsSchema = z
  .object({
    mode: z.literal('form').optional(),
    message: z.string(),
    requestedSchema: RequestedSchemaSchema,
    _meta: MetaObjectSchema.optional(),
  })
  .loose();
export type ElicitRequestFormParams = z.infer<typeof ElicitRequestFormParamsSchema>;

/**
 * `elicitation/create` in URL mode. 2025-11-25 requires `elicitationId` (see
 * {@link LegacyElicitRequestURLParamsSchema}); 2026-07-28 has no such member.
 */
export const ElicitRequestURLParamsSchema = z
  .object({
    mode: z.literal('url'),
    message: z.string(),
    url: z.string(),
    elicitationId: z.string().optional(),
    _meta: MetaObjectSchema.optional(),
  })
  .loose();
export type ElicitRequestURLParams = z.infer<typeof ElicitRequestURLParamsSchema>;

/** URL-mode params as a legacy (2025-11-25) server sends them: with an `elicitationId`. */
export const LegacyElicitRequestURLParamsSchema = ElicitRequestURLParamsSchema.extend({
  elicitationId: z.string(),
});

/** `elicitation/create` params of either mode. */
export const ElicitRequestParamsSchema = z.union([
  ElicitRequestURLParamsSchema,
  ElicitRequestFormParamsSchema,
]);
export type ElicitRequestParams = z.infer<typeof ElicitRequestParamsSchema>;

/** `elicitation/create` params as a legacy server sends them. */
export const LegacyElicitRequestParamsSchema = z.union([
  LegacyElicitRequestURLParamsSchema,
  ElicitRequestFormParamsSchema,
]);

/**
 * A value of an accepted form. The spec lists strings, integers, booleans and string lists; any
 * number is accepted, since a `number` field can hold a fraction.
 */
export const ElicitedValueSchema = z.union([
  z.string(),
  z.number(),
  z.boolean(),
  z.array(z.string()),
]);

/** The user's answer to an elicitation. */
export const ElicitResultSchema = z
  .object({
    action: z.enum(['accept', 'decline', 'cancel']),
    content: z.record(z.string(), ElicitedValueSchema).optional(),
    _meta: MetaObjectSchema.optional(),
  })
  .loose();
export type ElicitResult = z.infer<typeof ElicitResultSchema>;
