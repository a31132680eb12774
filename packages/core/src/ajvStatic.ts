import { Ajv2020, type Options } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { SchemaCompiler } from './schemaCompiler.js';
import { interpretingCompiler } from './schemaInterpreter.js';

/**
 * The schema compiler where there is no `require` (Workers, Deno, browsers): ajv imported with the
 * module. Where generating code from strings is forbidden (Workers), ajv's first compile throws an
 * `EvalError`; from then on a schema interpreter compiles instead. Node gets the lazy `ajvNode.ts`
 * (the `#schemas` import's node condition).
 */
export function makeSchemaCompiler(options: Options): SchemaCompiler {
  // No logger: where code generation is forbidden, ajv would print the code it could not compile.
  const ajv = addFormats.default(new Ajv2020({ ...options, logger: false }));
  let interpreter: SchemaCompiler | undefined;
  return {
    compile(schema) {
      if (interpreter) return interpreter.compile(schema);
      try {
        return ajv.compile(schema);
      } catch (failure) {
        if (!(failure instanceof EvalError)) throw failure;
        interpreter = interpretingCompiler();
        return interpreter.compile(schema);
      }
    },
  };
}
