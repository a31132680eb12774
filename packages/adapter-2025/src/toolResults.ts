import { compileJsonSchema, describeAjvError, type ToolDefinition } from '@rondo/core';
import {
  error,
  isPlainObject,
  toolResultToWire,
  type JsonObject,
  type ToolResult,
} from '@rondo/protocol';

type OutputValidator = ReturnType<typeof compileJsonSchema>;

/** Compiled output schemas, by schema object: a tool's schema is compiled once. */
const outputValidators = new WeakMap<JsonObject, OutputValidator | Error>();

/** An error tool result (`isError`) with one text block. */
export function toolErrorResult(message: string): Record<string, unknown> {
  return toolResultToWire(error(message));
}

/**
 * A tool result on the legacy wire. `structuredContent` is an object there and must match the
 * tool's `outputSchema`; a result that would break either rule becomes an error result, so the
 * client never receives invalid wire (nor a result its SDK rejects).
 */
export function toolResultForWire(
  result: ToolResult,
  definition: ToolDefinition | undefined,
): Record<string, unknown> {
  const wire = toolResultToWire(result);
  const name = definition?.name ?? 'tool';
  if ('structuredContent' in wire && !isPlainObject(wire.structuredContent)) {
    return toolErrorResult(
      `Tool "${name}" returned structured content that is not a JSON object, which this protocol revision cannot carry`,
    );
  }
  const schema = definition?.outputSchema;
  if (!schema || wire.isError === true) return wire;
  if (wire.structuredContent === undefined) {
    return toolErrorResult(
      `Tool "${name}" declares an outputSchema but returned no structured content`,
    );
  }
  const validate = outputValidatorFor(schema);
  if (validate instanceof Error) {
    return toolErrorResult(
      `Tool "${name}" has an outputSchema that cannot be compiled: ${validate.message}`,
    );
  }
  // Validate a copy: the shared validator may fill in defaults, and the wire must carry what the tool returned.
  if (!validate(structuredClone(wire.structuredContent))) {
    return toolErrorResult(
      `Tool "${name}" returned structured content that does not match its outputSchema: ${describeAjvError(validate.errors?.[0] ?? undefined)}`,
    );
  }
  return wire;
}

function outputValidatorFor(schema: JsonObject): OutputValidator | Error {
  let validator = outputValidators.get(schema);
  if (!validator) {
    try {
      validator = compileJsonSchema(schema);
    } catch (failure) {
      validator = failure instanceof Error ? failure : new Error(String(failure));
    }
    outputValidators.set(schema, validator);
  }
  return validator;
}
