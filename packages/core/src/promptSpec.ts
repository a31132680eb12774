import { ErrorCode, McpError, type JsonObject } from '@rondo/protocol';
import type { PromptArgument, PromptDefinition } from './contracts/definitions.js';
import { ConfigurationError } from './errors.js';
import {
  compileArgumentValidator,
  toJsonSchema,
  type ArgumentValidator,
  type SchemaInput,
} from './inputValidation.js';
import type { PromptHandler } from './localProvider.js';
import type { PromptSpec } from './serverTypes.js';

/**
 * A prompt registered with a bad arguments schema (not an object schema, or a field that is not a
 * string: prompt arguments are strings on the wire). Names the prompt, the argument and the rule.
 */
export class PromptDefinitionError extends ConfigurationError {
  override readonly code: string = 'core.prompt-definition';
  override readonly name = 'PromptDefinitionError';
  constructor(
    /** The prompt's name as registered. */
    readonly prompt: string,
    /** The argument at fault, when one is. */
    readonly argument: string | undefined,
    detail: string,
  ) {
    super(`prompt ${JSON.stringify(prompt)}: ${detail}`);
  }
}

/**
 * What `server.prompt(name, spec, handler)` registers: the descriptor (its `arguments` list as
 * declared, or derived from an object schema's string fields) and the handler, wrapped to validate
 * the arguments with the schema first (-32602 naming the field) when a schema was given.
 */
export function promptFromSpec(
  name: string,
  spec: PromptSpec<readonly PromptArgument[] | SchemaInput>,
  handler: PromptHandler<never>,
): { definition: PromptDefinition; handler: PromptHandler } {
  const { visible: _visible, scopes: _scopes, arguments: declared, ...described } = spec;
  const definition: PromptDefinition = { name, ...described };
  if (declared === undefined) return { definition, handler: handler as PromptHandler };
  if (isArgumentList(declared)) {
    definition.arguments = [...declared];
    return { definition, handler: handler as PromptHandler };
  }
  definition.arguments = argumentsOfSchema(name, toJsonSchema(declared, `prompt "${name}"`));
  const validate = compileArgumentValidator(declared, `prompt "${name}"`);
  return { definition, handler: validated(validate, handler as PromptHandler) };
}

function isArgumentList(
  declared: readonly PromptArgument[] | SchemaInput,
): declared is readonly PromptArgument[] {
  return Array.isArray(declared);
}

/** The handler behind a schema check: bad arguments are -32602, valid ones reach it parsed. */
function validated(validate: ArgumentValidator, handler: PromptHandler): PromptHandler {
  return async (args, ctx) => {
    const checked = await validate(args);
    if (!checked.ok) throw new McpError(ErrorCode.InvalidParams, checked.message);
    return handler(checked.value as Record<string, string>, ctx);
  };
}

/**
 * The `arguments` list of an object schema: one per property, in order, with its description and
 * title, required when the schema requires it. Refuses a root that is not an object schema and a
 * property that does not hold a string.
 */
export function argumentsOfSchema(prompt: string, schema: JsonObject): PromptArgument[] {
  if (schema.type !== 'object') {
    const found = schema.type === undefined ? 'no "type"' : `type ${JSON.stringify(schema.type)}`;
    throw new PromptDefinitionError(
      prompt,
      undefined,
      `its arguments schema must be an object schema (type "object") but has ${found} (with zod: z.object({...}))`,
    );
  }
  const properties = isObject(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? schema.required : [];
  return Object.entries(properties).map(([name, property]) => {
    if (!isObject(property) || !holdsString(property))
      throw new PromptDefinitionError(
        prompt,
        name,
        `argument ${JSON.stringify(name)} must be a string schema (prompt arguments are strings on the wire) but is ${JSON.stringify(property)}`,
      );
    const argument: PromptArgument = { name };
    if (typeof property.title === 'string') argument.title = property.title;
    if (typeof property.description === 'string') argument.description = property.description;
    if (required.includes(name)) argument.required = true;
    return argument;
  });
}

/** True when every value the schema admits is a string (`type: "string"`, string enums, unions of those). */
function holdsString(schema: JsonObject): boolean {
  if (schema.type === 'string') return true;
  if (schema.type !== undefined) return false;
  if (Array.isArray(schema.enum))
    return schema.enum.length > 0 && schema.enum.every((v) => typeof v === 'string');
  if (schema.const !== undefined) return typeof schema.const === 'string';
  const union = schema.anyOf ?? schema.oneOf;
  return (
    Array.isArray(union) &&
    union.length > 0 &&
    union.every((member) => isObject(member) && holdsString(member))
  );
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
