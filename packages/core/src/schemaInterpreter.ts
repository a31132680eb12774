import { Validator, type OutputUnit } from '@cfworker/json-schema';
import type { ErrorObject } from 'ajv/dist/2020.js';
import type { JsonObject } from '@rondo/protocol';
import type { CompiledSchema, SchemaCompiler } from './schemaCompiler.js';

/**
 * A JSON Schema (2020-12) compiler for runtimes that forbid generating code from strings
 * (Cloudflare Workers), where ajv cannot compile: `@cfworker/json-schema` interprets the schema
 * instead. It checks the same schemas but fills in no `default` values.
 */
export function interpretingCompiler(): SchemaCompiler {
  return {
    compile(schema: JsonObject): CompiledSchema {
      const validator = new Validator(schema, '2020-12', true);
      const validate: CompiledSchema = (data) => {
        const result = validator.validate(data);
        validate.errors = result.valid ? null : [toAjvError(mostSpecific(result.errors))];
        return result.valid;
      };
      return validate;
    },
  };
}

/** The error at the deepest instance location: the one that names the field. */
function mostSpecific(errors: readonly OutputUnit[]): OutputUnit | undefined {
  let best: OutputUnit | undefined;
  for (const error of errors)
    if (!best || error.instanceLocation.length > best.instanceLocation.length) best = error;
  return best;
}

function toAjvError(error: OutputUnit | undefined): ErrorObject {
  const instancePath = (error?.instanceLocation ?? '#').replace(/^#/, '');
  const missing = error?.keyword === 'required' ? /"([^"]*)"/.exec(error.error)?.[1] : undefined;
  return {
    instancePath,
    schemaPath: error?.keywordLocation ?? '#',
    keyword: error?.keyword ?? 'invalid',
    params: missing === undefined ? {} : { missingProperty: missing },
    message: error?.error ?? 'invalid value',
  };
}
