import type { ErrorObject } from 'ajv/dist/2020.js';
import type { JsonObject } from '@rondo/protocol';

/** A compiled JSON Schema: true when `data` matches; `errors` then says why not (ajv's shape). */
export interface CompiledSchema {
  (data: unknown): boolean;
  errors?: ErrorObject[] | null | undefined;
}

/** What compiles JSON Schemas for the core: ajv where code generation is allowed. */
export interface SchemaCompiler {
  compile(schema: JsonObject): CompiledSchema;
}
