import {
  ErrorCode,
  InputResponseError,
  McpError,
  inputResponseFromWire,
  isPlainObject,
  type InputRequestBody,
  type InputResponseValue,
  type JsonObject,
} from '@rondo/protocol';
import { compileJsonSchema, describeAjvError } from '@rondo/core';

type ValidateFunction = ReturnType<typeof compileJsonSchema>;

/**
 * Reading a retry's `inputResponses`: each answer is checked against the request it answers (an
 * elicitation's accepted content against the schema that was sent), unknown keys are ignored, and
 * anything malformed is -32602.
 */

/** Bodies that only carry a kind, for reading an answer whose request is not known. */
const ANSWER_SHAPES = {
  elicitation: { kind: 'form_elicitation', message: '', schema: {} },
  sampling: { kind: 'sampling', messages: [] },
  roots: { kind: 'roots' },
} as const satisfies Record<string, InputRequestBody>;

const NO_ANSWERS: Record<string, InputResponseValue> = Object.freeze({});

/**
 * Reads the answers of a retry. With `sent` (the requests of the previous round) each known key is
 * read as the answer to its request and other keys are dropped; without it (a first call that
 * carries answers anyway) every entry must look like some answer and is passed through.
 */
export function readInputResponses(
  raw: unknown,
  sent: Readonly<Record<string, InputRequestBody>> | undefined,
): Record<string, InputResponseValue> {
  if (raw === undefined) return NO_ANSWERS;
  if (!isPlainObject(raw)) throw malformed('inputResponses must be an object of answers by key');
  const answers: Record<string, InputResponseValue> = {};
  for (const key of Object.keys(raw)) {
    if (sent === undefined) {
      answers[key] = readAnswer(key, shapeOf(key, raw[key]), raw[key]);
    } else if (Object.hasOwn(sent, key)) {
      answers[key] = readAnswer(key, sent[key] as InputRequestBody, raw[key]);
    }
  }
  return answers;
}

function readAnswer(key: string, request: InputRequestBody, value: unknown): InputResponseValue {
  let answer: InputResponseValue;
  try {
    answer = inputResponseFromWire(request, value);
  } catch (failure) {
    if (failure instanceof InputResponseError)
      throw malformed(`inputResponses["${key}"]: ${failure.message}`, key);
    throw failure;
  }
  if (request.kind === 'form_elicitation' && answer.kind === 'accept') {
    const validate = elicitationValidator(request.schema);
    if (!validate(answer.content)) {
      throw malformed(
        `inputResponses["${key}"]: the content does not match the requested schema: ${describeAjvError(validate.errors?.[0])}`,
        key,
      );
    }
  }
  return answer;
}

function shapeOf(key: string, value: unknown): InputRequestBody {
  if (isPlainObject(value)) {
    if ('action' in value) return ANSWER_SHAPES.elicitation;
    if ('roots' in value) return ANSWER_SHAPES.roots;
    if ('model' in value || 'role' in value) return ANSWER_SHAPES.sampling;
  }
  throw malformed(`inputResponses["${key}"] is not an elicitation, sampling or roots result`, key);
}

function malformed(message: string, key?: string): McpError {
  return new McpError(
    ErrorCode.InvalidParams,
    `Invalid params: ${message}`,
    key === undefined ? undefined : { inputResponse: key },
  );
}

/**
 * The client capabilities the requests need and the client did not declare, as the
 * `requiredCapabilities` of a -32021 error; `undefined` when every request is allowed.
 */
export function missingCapabilities(
  requests: readonly { request: InputRequestBody }[],
  declared: JsonObject,
): JsonObject | undefined {
  const missing: Record<string, JsonObject> = {};
  const need = (capability: string, detail?: string): void => {
    const entry = (missing[capability] ??= {});
    if (detail !== undefined) entry[detail] = {};
  };
  for (const { request } of requests) {
    switch (request.kind) {
      case 'form_elicitation': {
        const elicitation = declared.elicitation;
        // An empty elicitation object declares form mode; only a url-only declaration lacks it.
        if (!isPlainObject(elicitation)) need('elicitation');
        else if ('url' in elicitation && !('form' in elicitation)) need('elicitation', 'form');
        break;
      }
      case 'url_elicitation': {
        const elicitation = declared.elicitation;
        if (!isPlainObject(elicitation) || !('url' in elicitation)) need('elicitation', 'url');
        break;
      }
      case 'sampling': {
        const sampling = declared.sampling;
        if (!isPlainObject(sampling)) need('sampling');
        if (
          (request.tools?.length || request.toolChoice) &&
          !(isPlainObject(sampling) && 'tools' in sampling)
        ) {
          need('sampling', 'tools');
        }
        const context = request.includeContext;
        if (
          context !== undefined &&
          context !== 'none' &&
          !(isPlainObject(sampling) && 'context' in sampling)
        ) {
          need('sampling', 'context');
        }
        break;
      }
      case 'roots':
        if (!isPlainObject(declared.roots)) need('roots');
        break;
    }
  }
  return Object.keys(missing).length === 0 ? undefined : missing;
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
