import type { Json, JsonObject, ToolResult } from '@rondo/protocol';
import { ConfigurationError } from '../errors.js';
import type { ToolDefinition } from '../contracts/definitions.js';
import { compileJsonSchema } from '../inputValidation.js';
import { TOOL_NAME_RULE, isValidToolName } from '../toolRules.js';

/** How one argument of a derived tool differs from the original's. */
export interface ArgumentTransform {
  /** The name callers of the derived tool give it. */
  name?: string;
  /** A new description for the argument. */
  description?: string;
  /** Leave the argument out of the derived schema; the original always gets `value`. */
  hidden?: boolean;
  /** The value a hidden argument always has. */
  value?: Json;
  /** The value a visible argument takes when the caller leaves it out. */
  default?: Json;
  /** A narrower schema for the argument (a subset of the values the original accepts). */
  schema?: JsonObject;
}

/** How a derived tool's result is reshaped: keep some members of the structured result only. */
export interface OutputPick {
  pick: readonly string[];
}

/** A function that reshapes a result, with the output schema of what it returns (if any). */
export interface OutputReshape {
  reshape: (result: ToolResult) => ToolResult;
  outputSchema?: JsonObject;
}

/**
 * A tool derived from another: renamed, described anew, with arguments renamed, hidden behind a
 * fixed value, given defaults or narrower schemas, and its output reshaped. The original is no
 * longer offered unless `keepOriginal` is set.
 */
export interface ToolTransform {
  name?: string;
  title?: string;
  description?: string;
  arguments?: Readonly<Record<string, ArgumentTransform>>;
  output?: OutputPick | OutputReshape;
  /** Scopes a call of the derived tool needs besides the original's (a search hides it without them). */
  scopes?: readonly string[];
  /** Offer the original tool too, under its own name (default false). */
  keepOriginal?: boolean;
}

/** A transform that cannot apply to the tool it names; the message names the tool and the fault. */
export class ToolTransformError extends ConfigurationError {
  override readonly code: string = 'core.tool-transform';
  override readonly name = 'ToolTransformError';
  constructor(
    /** The original tool's name. */
    readonly tool: string,
    detail: string,
  ) {
    super(`tool transform of ${JSON.stringify(tool)}: ${detail}`);
  }
}

/** A derived tool: its descriptor and the two mappings between it and the original. */
export interface DerivedTool {
  readonly definition: ToolDefinition;
  /** The original's arguments for the derived tool's (already validated) arguments. */
  toOriginal(args: Record<string, unknown>): Record<string, unknown>;
  /** The derived tool's result for the original's. */
  reshape(result: ToolResult): ToolResult;
}

/**
 * Checks what can be checked of a transform without the tool it applies to: the new name, each
 * narrowed schema compiles, a hidden argument has its value. Throws {@link ToolTransformError}.
 */
export function checkToolTransform(tool: string, spec: ToolTransform): void {
  if (spec.name !== undefined && !isValidToolName(spec.name))
    throw new ToolTransformError(tool, `name ${JSON.stringify(spec.name)}: ${TOOL_NAME_RULE}`);
  for (const [arg, change] of Object.entries(spec.arguments ?? {})) {
    const where = `argument ${JSON.stringify(arg)}`;
    if (change.hidden === true && change.value === undefined)
      throw new ToolTransformError(tool, `${where} is hidden but has no value`);
    if (change.hidden !== true && change.value !== undefined)
      throw new ToolTransformError(tool, `${where} has a value but is not hidden`);
    if (change.schema !== undefined) compileArgumentSchema(tool, where, change.schema);
  }
}

/**
 * Derives a tool from `original` by `spec`, checking the result: every argument named exists,
 * no two arguments end up with one name, hidden and default values match the original's schema
 * and the narrowed one, and the derived input schema compiles. Throws {@link ToolTransformError}.
 */
export function deriveTool(original: ToolDefinition, spec: ToolTransform): DerivedTool {
  const tool = original.name;
  checkToolTransform(tool, spec);
  const schema = original.inputSchema;
  const properties = { ...((schema.properties as Record<string, JsonObject> | undefined) ?? {}) };
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const derivedProperties: Record<string, JsonObject> = {};
  const derivedRequired: string[] = [];
  const toOriginalName = new Map<string, string>();
  const fixed: Record<string, unknown> = {};
  const changes = spec.arguments ?? {};
  for (const arg of Object.keys(changes))
    if (!(arg in properties))
      throw new ToolTransformError(tool, `argument ${JSON.stringify(arg)}: the tool has none`);
  for (const [arg, property] of Object.entries(properties)) {
    const change = changes[arg] ?? {};
    const where = `argument ${JSON.stringify(arg)}`;
    if (change.hidden === true) {
      checkValue(tool, `${where}: value`, property, change.value as Json);
      fixed[arg] = change.value;
      continue;
    }
    const outer = change.name ?? arg;
    if (toOriginalName.has(outer))
      throw new ToolTransformError(tool, `${where}: the name ${JSON.stringify(outer)} is taken`);
    const narrowed: JsonObject = { ...(change.schema ?? property) };
    if (change.description !== undefined) narrowed.description = change.description;
    if (change.default !== undefined) {
      checkValue(tool, `${where}: default`, property, change.default);
      checkValue(tool, `${where}: default`, narrowed, change.default);
      narrowed.default = change.default;
    }
    derivedProperties[outer] = narrowed;
    toOriginalName.set(outer, arg);
    if (required.has(arg) && change.default === undefined) derivedRequired.push(outer);
  }
  const inputSchema: JsonObject = { ...schema, properties: derivedProperties };
  if (derivedRequired.length > 0) inputSchema.required = derivedRequired;
  else delete inputSchema.required;
  compileArgumentSchema(tool, 'the derived input schema', inputSchema);
  const output = outputOf(original, spec.output);
  const definition: ToolDefinition = {
    ...original,
    name: spec.name ?? tool,
    inputSchema,
    ...(spec.title !== undefined ? { title: spec.title } : {}),
    ...(spec.description !== undefined ? { description: spec.description } : {}),
  };
  if (output.schema === undefined) delete definition.outputSchema;
  else definition.outputSchema = output.schema;
  return {
    definition,
    toOriginal: (args) => {
      const mapped: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(args))
        mapped[toOriginalName.get(key) ?? key] = value;
      return { ...mapped, ...structuredClone(fixed) };
    },
    reshape: output.reshape,
  };
}

/** The output schema and reshaping of a derived tool. */
function outputOf(
  original: ToolDefinition,
  output: OutputPick | OutputReshape | undefined,
): { schema: JsonObject | undefined; reshape: (result: ToolResult) => ToolResult } {
  if (output === undefined) return { schema: original.outputSchema, reshape: (r) => r };
  if ('reshape' in output) return { schema: output.outputSchema, reshape: output.reshape };
  const keep = new Set(output.pick);
  const properties = (original.outputSchema?.properties ?? undefined) as
    Record<string, JsonObject> | undefined;
  if (properties !== undefined)
    for (const member of keep)
      if (!(member in properties))
        throw new ToolTransformError(
          original.name,
          `output.pick: the output schema has no member ${JSON.stringify(member)}`,
        );
  const schema =
    original.outputSchema && properties
      ? {
          ...original.outputSchema,
          properties: Object.fromEntries(Object.entries(properties).filter(([k]) => keep.has(k))),
          required: ((original.outputSchema.required as string[] | undefined) ?? []).filter((k) =>
            keep.has(k),
          ),
        }
      : undefined;
  return { schema, reshape: (result) => pickStructured(result, keep) };
}

/** A structured result with only the kept members, its text restating them. */
function pickStructured(result: ToolResult, keep: ReadonlySet<string>): ToolResult {
  if (result.kind !== 'structured') return result;
  const value = result.structured;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return result;
  const picked = Object.fromEntries(Object.entries(value).filter(([k]) => keep.has(k))) as Json;
  return {
    kind: 'structured',
    structured: picked,
    items: [{ kind: 'text', text: JSON.stringify(picked) }],
  };
}

/** Compiles a schema, or throws naming the tool and where the schema is. */
function compileArgumentSchema(tool: string, where: string, schema: JsonObject) {
  try {
    return compileJsonSchema(schema);
  } catch (failure) {
    throw new ToolTransformError(
      tool,
      `${where}: invalid JSON Schema: ${(failure as Error).message}`,
    );
  }
}

/** Throws unless `value` is valid for `schema`. */
function checkValue(tool: string, where: string, schema: JsonObject, value: Json): void {
  const validate = compileArgumentSchema(tool, where, schema);
  if (!validate(structuredClone(value)))
    throw new ToolTransformError(
      tool,
      `${where} ${JSON.stringify(value)} does not match its schema (${validate.errors?.[0]?.message ?? 'invalid'})`,
    );
}
