import type { JsonObject } from '@rondo/protocol';
import type { ToolDefinition } from './contracts/definitions.js';
import {
  compileArgumentValidator,
  isSchemaObject,
  toJsonSchema,
  type ArgumentValidator,
  type SchemaInput,
} from './inputValidation.js';
import type { ToolSpec } from './serverTypes.js';
import { checkObjectSchema, checkToolName } from './toolRules.js';

const EMPTY_SCHEMA: JsonObject = { type: 'object' };

/**
 * What `server.tool(name, spec)` registers: the descriptor clients list, checked against the
 * rules they hold it to, and the validator of a schema library's arguments (a JSON Schema is
 * compiled by the catalog instead). Throws a `ToolDefinitionError` for a descriptor clients would
 * reject, a `ConfigurationError` for a schema that cannot become JSON Schema.
 */
export function toolFromSpec<S extends SchemaInput>(
  name: string,
  spec: ToolSpec<S>,
): { definition: ToolDefinition; validator: ArgumentValidator | undefined } {
  checkToolName(name);
  const owner = `tool "${name}"`;
  const definition: ToolDefinition = {
    name,
    inputSchema: spec.input ? toJsonSchema(spec.input, owner) : EMPTY_SCHEMA,
  };
  checkObjectSchema(name, 'inputSchema', definition.inputSchema);
  if (spec.title !== undefined) definition.title = spec.title;
  if (spec.description !== undefined) definition.description = spec.description;
  if (spec.output !== undefined) {
    definition.outputSchema = toJsonSchema(spec.output, owner);
    checkObjectSchema(name, 'outputSchema', definition.outputSchema);
  }
  if (spec.annotations !== undefined) definition.annotations = spec.annotations;
  if (spec.icons !== undefined) definition.icons = spec.icons;
  if (spec._meta !== undefined) definition._meta = spec._meta;
  const validator =
    spec.input && isSchemaObject(spec.input)
      ? compileArgumentValidator(spec.input, owner)
      : undefined;
  return { definition, validator };
}
