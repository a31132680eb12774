import type { ErrorObject } from 'ajv/dist/2020.js';
import { makeSchemaCompiler } from '#schemas';
import { z } from 'zod';
import type { JsonObject } from '@rondo/protocol';
import { ConfigurationError } from './errors.js';
import type { CompiledSchema, SchemaCompiler } from './schemaCompiler.js';
import {
  isStandardSchema,
  issuePath,
  standardJsonSchema,
  type StandardResult,
  type StandardSchema,
} from './standardSchema.js';

/**
 * A tool's schema: a zod schema, any other Standard Schema that exports JSON Schema (ArkType,
 * Valibot through `toStandardJsonSchema`), or a JSON Schema object (any provider).
 */
export type SchemaInput = z.ZodType | StandardSchema | JsonObject;

/** The outcome of validating arguments: the (possibly defaulted) value, or a message naming the field. */
export type ArgumentCheck =
  { ok: true; value: Record<string, unknown> } | { ok: false; message: string };

/** A compiled argument validator; a Standard Schema may validate asynchronously. */
export type ArgumentValidator = (
  args: Record<string, unknown>,
) => ArgumentCheck | Promise<ArgumentCheck>;

let sharedAjv: SchemaCompiler | undefined;

/**
 * One ajv instance for the process: schemas are compiled once per tool, when the tool is
 * registered. Made on first use; on Node, ajv is only loaded then (see `ajvNode.ts`).
 */
function ajv(): SchemaCompiler {
  sharedAjv ??= makeSchemaCompiler({ allErrors: false, strict: false, useDefaults: true });
  return sharedAjv;
}

/** True when `schema` is a zod schema rather than a JSON Schema object. */
export function isZodSchema(schema: SchemaInput): schema is z.ZodType {
  return schema instanceof z.ZodType;
}

/** True when `schema` is a schema library's object (zod or another Standard Schema), not JSON Schema. */
export function isSchemaObject(schema: SchemaInput): schema is z.ZodType | StandardSchema {
  return isZodSchema(schema) || isStandardSchema(schema);
}

/**
 * Converts a schema input to the JSON Schema advertised on the wire (a library's schema is
 * converted once, by the library). `owner` names the schema's tool in a {@link ConfigurationError}.
 */
export function toJsonSchema(schema: SchemaInput, owner = 'schema'): JsonObject {
  let converted: JsonObject;
  if (isZodSchema(schema)) {
    converted = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input' }) as JsonObject;
  } else if (isStandardSchema(schema)) {
    const exported = standardJsonSchema(schema);
    if (!exported)
      throw new ConfigurationError(
        `${owner}: the ${schema['~standard'].vendor} schema exports no JSON Schema, which clients need; wrap it with its converter (Valibot: toStandardJsonSchema from @valibot/to-json-schema)`,
      );
    converted = { ...(exported as JsonObject) };
  } else {
    return schema;
  }
  delete converted.$schema;
  return converted;
}

/**
 * Compiles a validator for a tool's arguments: a zod schema validates with zod, another Standard
 * Schema with its own library, JSON Schema with ajv. Every failure reads alike, naming the field.
 */
export function compileArgumentValidator(schema: SchemaInput, owner: string): ArgumentValidator {
  if (!isZodSchema(schema) && isStandardSchema(schema)) {
    const standard = schema['~standard'];
    return (args) => {
      const outcome = standard.validate(args);
      return outcome instanceof Promise
        ? outcome.then((settled) => standardCheck(settled, owner))
        : standardCheck(outcome, owner);
    };
  }
  if (isZodSchema(schema)) {
    return (args) => {
      const parsed = schema.safeParse(args);
      if (parsed.success) return { ok: true, value: parsed.data as Record<string, unknown> };
      const issue = parsed.error.issues[0];
      const field = issue && issue.path.length > 0 ? issue.path.join('.') : '(arguments)';
      return {
        ok: false,
        message: `Invalid arguments for ${owner}: ${field}: ${issue?.message ?? 'invalid'}`,
      };
    };
  }
  let validate: CompiledSchema;
  try {
    validate = ajv().compile(schema);
  } catch (failure) {
    throw new ConfigurationError(`${owner}: invalid JSON Schema: ${(failure as Error).message}`);
  }
  // ajv fills defaults in place; the caller's arguments must stay as the client sent them (a sealed
  // requestState is bound to them), so a schema with defaults validates a copy.
  const fillsDefaults = declaresDefaults(schema);
  return (args) => {
    const value = fillsDefaults ? structuredClone(args) : args;
    if (validate(value)) return { ok: true, value };
    return {
      ok: false,
      message: `Invalid arguments for ${owner}: ${describeAjvError(validate.errors?.[0])}`,
    };
  };
}

function standardCheck(outcome: StandardResult<unknown>, owner: string): ArgumentCheck {
  if (!outcome.issues) return { ok: true, value: outcome.value as Record<string, unknown> };
  const issue = outcome.issues[0];
  return {
    ok: false,
    message: `Invalid arguments for ${owner}: ${issuePath(issue)}: ${issue?.message ?? 'invalid'}`,
  };
}

/** Compiles a plain JSON Schema validator (for output schemas and elicitation answers). */
export function compileJsonSchema(schema: JsonObject): CompiledSchema {
  return ajv().compile(schema);
}

/** A readable sentence for the first ajv error, naming the field. */
export function describeAjvError(error: ErrorObject | undefined): string {
  if (!error) return 'invalid value';
  const missing = (error.params as { missingProperty?: string }).missingProperty;
  if (missing !== undefined) {
    const base = error.instancePath.replace(/^\//, '').replaceAll('/', '.');
    return `${base ? `${base}.` : ''}${missing}: required`;
  }
  const field = error.instancePath.replace(/^\//, '').replaceAll('/', '.') || '(arguments)';
  return `${field}: ${error.message ?? 'invalid value'}`;
}

/**
 * True when a JSON Schema may make the shared ajv (`useDefaults`) fill in defaults, which it does
 * in place: only then must a value be copied before it is validated. Read from the text, so a
 * property or enum value named `default` counts too (a copy too many, never one too few).
 */
export function declaresDefaults(schema: object): boolean {
  return JSON.stringify(schema).includes('"default"');
}
