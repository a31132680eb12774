import {
  ErrorCode,
  McpError,
  isPlainObject,
  type InputRequestBody,
  type InputResponseValue,
} from '@rondo/protocol';
import { readInputResponse } from '@rondo/core/internal';

/**
 * Reading a retry's `inputResponses`: each answer is read (and checked, by the core) against the
 * request it answers, unknown keys are ignored, and anything malformed is -32602.
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
      answers[key] = readInputResponse(key, shapeOf(key, raw[key]), raw[key]);
    } else if (Object.hasOwn(sent, key)) {
      answers[key] = readInputResponse(key, sent[key]!, raw[key]);
    }
  }
  return answers;
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
