import { createRequire } from 'node:module';
import type { Ajv2020, Options } from 'ajv/dist/2020.js';
import type { SchemaCompiler } from './schemaCompiler.js';

/**
 * Makes the shared schema compiler, on Node: ajv, ajv is loaded on first use with `require`, since it
 * costs tens of milliseconds to load and a server whose tools all have zod schemas may never need
 * it. Other runtimes get `ajvStatic.ts` (the `#schemas` import's default condition).
 */
export function makeSchemaCompiler(options: Options): SchemaCompiler {
  const require = createRequire(import.meta.url);
  const { Ajv2020: Ajv } = require('ajv/dist/2020.js') as {
    Ajv2020: new (options: Options) => Ajv2020;
  };
  const addFormats = (require('ajv-formats') as { default: (ajv: Ajv2020) => Ajv2020 }).default;
  return addFormats(new Ajv(options));
}
