import { Ajv2020, type Options } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/**
 * Makes the shared ajv instance where there is no `require` (Workers, Deno, browsers): ajv is
 * imported with the module. Node gets the lazy `ajvNode.ts` (the `#ajv` import's node condition).
 */
export function makeAjv(options: Options): Ajv2020 {
  return addFormats.default(new Ajv2020(options));
}
