import type { JsonObject, RoundResult, ToolResult } from '@rondo/protocol';
import type { ToolDefinition } from './contracts/definitions.js';
import { compileJsonSchema, declaresDefaults, describeAjvError } from './inputValidation.js';

/**
 * A compiled output schema, and whether it may fill in defaults (ajv does so in place, so only
 * then is a copy of the result validated: copying every result costs more than checking it).
 */
interface OutputValidator {
  readonly validate: ReturnType<typeof compileJsonSchema>;
  readonly fillsDefaults: boolean;
}

/** Compiled output schemas, by schema object: a tool's schema is compiled once. */
const outputValidators = new WeakMap<JsonObject, OutputValidator | Error>();

/**
 * Holds a tool's finished result to its `outputSchema`, in every era: a tool that promises
 * structured content must return it, matching the schema (the official clients reject a result
 * that breaks the promise). A result that does not becomes an error result naming why; error
 * results and tools without an output schema pass unchanged.
 */
export function checkToolOutput(
  definition: ToolDefinition,
  round: RoundResult<ToolResult>,
): RoundResult<ToolResult> {
  const schema = definition.outputSchema;
  if (!schema || round.kind !== 'complete' || isErrorResult(round.result)) return round;
  const result = round.result;
  const name = definition.name;
  if (result.kind !== 'structured') {
    return failed(`Tool "${name}" declares an outputSchema but returned no structured content`);
  }
  const validator = outputValidatorFor(schema);
  if (validator instanceof Error) {
    return failed(
      `Tool "${name}" has an outputSchema that cannot be compiled: ${validator.message}`,
    );
  }
  const { validate, fillsDefaults } = validator;
  // A schema with defaults validates a copy: the client must get what the tool returned.
  if (!validate(fillsDefaults ? structuredClone(result.structured) : result.structured)) {
    return failed(
      `Tool "${name}" returned structured content that does not match its outputSchema: ${describeAjvError(validate.errors?.[0] ?? undefined)}`,
    );
  }
  return round;
}

function isErrorResult(result: ToolResult): boolean {
  if (result.kind === 'error') return true;
  const items =
    result.kind === 'results'
      ? result.items
      : result.kind === 'structured'
        ? (result.items ?? [])
        : [];
  return items.some((item) => item.kind === 'error');
}

function failed(message: string): RoundResult<ToolResult> {
  return { kind: 'complete', result: { kind: 'error', text: message } };
}

function outputValidatorFor(schema: JsonObject): OutputValidator | Error {
  let validator = outputValidators.get(schema);
  if (!validator) {
    try {
      validator = {
        validate: compileJsonSchema(schema),
        fillsDefaults: declaresDefaults(schema),
      };
    } catch (failure) {
      validator = failure instanceof Error ? failure : new Error(String(failure));
    }
    outputValidators.set(schema, validator);
  }
  return validator;
}
