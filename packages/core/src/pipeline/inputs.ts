import {
  ErrorCode,
  McpError,
  isPlainObject,
  type InputRequestBody,
  type InputResponseValue,
  type JsonObject,
} from '@rondo/protocol';
import { InputResponseError, inputResponseFromWire } from '@rondo/protocol/internal';
import { MissingClientCapabilityError, RoundLimitError } from '../errors.js';
import { compileJsonSchema, describeAjvError } from '../inputValidation.js';

/**
 * Client input, the same for both eras: what a client must have declared to be asked, how many
 * rounds a request may take, and the reading of an answer, checked against the request it answers
 * (an elicitation's accepted content against the schema that was sent), whether it arrived as an
 * MRTR retry or as the response to a legacy server-to-client request.
 */

type ValidateFunction = ReturnType<typeof compileJsonSchema>;

/** Throws a {@link RoundLimitError} when a request in `round` may not ask for input any more. */
export function assertWithinRoundLimit(method: string, round: number, limit: number): void {
  if (round >= limit) throw new RoundLimitError(method, limit);
}

/** Throws a {@link MissingClientCapabilityError} unless the client declared what `requests` need. */
export function assertClientCanAnswer(
  requests: readonly { request: InputRequestBody }[],
  declared: JsonObject,
): void {
  const missing: Record<string, JsonObject> = {};
  let first: string | undefined;
  const need = (capability: string, detail?: string): void => {
    const entry = (missing[capability] ??= {});
    if (detail !== undefined) entry[detail] = {};
    first ??= detail === undefined ? capability : `${capability}.${detail}`;
  };
  for (const { request } of requests) needsOf(request, declared, need);
  if (first !== undefined) throw new MissingClientCapabilityError(missing, first);
}

function needsOf(
  request: InputRequestBody,
  declared: JsonObject,
  need: (capability: string, detail?: string) => void,
): void {
  const { elicitation, sampling } = declared;
  switch (request.kind) {
    case 'form_elicitation':
      // An empty elicitation object declares form mode; only a url-only declaration lacks it.
      if (!isPlainObject(elicitation)) need('elicitation');
      else if ('url' in elicitation && !('form' in elicitation)) need('elicitation', 'form');
      return;
    case 'url_elicitation':
      if (!isPlainObject(elicitation) || !('url' in elicitation)) need('elicitation', 'url');
      return;
    case 'sampling':
      if (!isPlainObject(sampling)) need('sampling');
      if ((request.tools?.length || request.toolChoice) && !has(sampling, 'tools'))
        need('sampling', 'tools');
      if (request.includeContext && request.includeContext !== 'none' && !has(sampling, 'context'))
        need('sampling', 'context');
      return;
    case 'roots':
      if (!isPlainObject(declared.roots)) need('roots');
      return;
  }
}

function has(value: unknown, member: string): boolean {
  return isPlainObject(value) && member in value;
}

/**
 * Reads the client's answer to one input request, as the canonical vocabulary has it. A malformed
 * answer, or accepted content that breaks the requested schema, is -32602 naming the key.
 */
export function readInputResponse(
  key: string,
  request: InputRequestBody,
  value: unknown,
): InputResponseValue {
  let answer: InputResponseValue;
  try {
    answer = inputResponseFromWire(request, value);
  } catch (failure) {
    if (failure instanceof InputResponseError) throw malformedAnswer(key, failure.message);
    throw failure;
  }
  if (request.kind === 'form_elicitation' && answer.kind === 'accept') {
    const validate = elicitationValidator(request.schema);
    if (!validate(answer.content)) {
      const reason = describeAjvError(validate.errors?.[0]);
      throw malformedAnswer(key, `the content does not match the requested schema: ${reason}`);
    }
  }
  return answer;
}

function malformedAnswer(key: string, reason: string): McpError {
  return new McpError(
    ErrorCode.InvalidParams,
    `Invalid params: inputResponses["${key}"]: ${reason}`,
    {
      inputResponse: key,
    },
  );
}

/** Validators of elicitation schemas, by schema text, so a schema is compiled once per process. */
const validators = new Map<string, ValidateFunction>();
const VALIDATOR_LIMIT = 512;

/** The compiled validator of a requested elicitation schema (compiled on first use, then reused). */
export function elicitationValidator(schema: JsonObject): ValidateFunction {
  const text = JSON.stringify(schema);
  let validate = validators.get(text);
  if (validate === undefined) {
    if (validators.size >= VALIDATOR_LIMIT)
      validators.delete(validators.keys().next().value as string);
    validate = compileJsonSchema(schema);
    validators.set(text, validate);
  }
  return validate;
}
