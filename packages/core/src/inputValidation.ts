import type { ErrorObject } from 'ajv/dist/2020.js';
import { makeSchemaCompiler } from '#schemas';
import { z } from 'zod';
import type { JsonObject } from '@rondo/protocol';
import { ConfigurationError } from './errors.js';
import type { CompiledSchema, SchemaCompiler } from './schemaCompiler.js';

/** Either a zod object schema (the TypeScript API) or a JSON Schema object (any provider). */
export type SchemaInput = z.ZodType | JsonObject;

/** The outcome of validating arguments: the (possibly defaulted) value, or a message naming the field. */
export type ArgumentCheck =
  { ok: true; value: Record<string, unknown> } | { ok: false; message: string };

/** A compiled argument validator. */
export type ArgumentValidator = (args: Record<string, unknown>) => ArgumentCheck;

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

/** Converts a schema input to the JSON Schema advertised on the wire (zod is converted once). */
export function toJsonSchema(schema: SchemaInput): JsonObject {
  if (!isZodSchema(schema)) return schema;
  const converted = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input' }) as JsonObject;
  delete converted.$schema;
  return converted;
}

/** Compiles a validator for a tool's arguments; a zod schema validates with zod, JSON Schema with ajv. */
export function compileArgumentValidator(schema: SchemaInput, owner: string): ArgumentValidator {
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
  const fillsDefaults = JSON.stringify(schema).includes('"default"');
  return (args) => {
    const value = fillsDefaults ? structuredClone(args) : args;
    if (validate(value)) return { ok: true, value };
    return {
      ok: false,
      message: `Invalid arguments for ${owner}: ${describeAjvError(validate.errors?.[0])}`,
    };
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
