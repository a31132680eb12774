import { existsSync } from 'node:fs';
import type { JsonRpcMessage } from '@rondo/protocol';
import {
  specDir,
  specSchemaPath,
  WireValidator,
  type MethodOf,
} from '@rondo/test-support/specSchemas';

/**
 * The legacy era's wire check: the shared spec validator of the negotiated revision (2025-06-18
 * or 2025-11-25), plus what the legacy wire must never carry (modern result members and error
 * codes, server messages the revision does not let a server send).
 *
 * Definitions whose members the adapter shapes per revision are checked closed
 * (`additionalProperties: false`), so a member the revision lacks fails the check.
 */
export type SpecRevision = '2025-06-18' | '2025-11-25';

/** Why wire validation cannot run, or undefined when the schemas are there. */
export function specMissingReason(): string | undefined {
  for (const revision of ['2025-06-18', '2025-11-25'] as const) {
    if (!existsSync(specSchemaPath(revision)))
      return `spec schema ${revision} not found under ${specDir} (set RONDO_SPEC_DIR)`;
  }
  return undefined;
}

const CLOSED = [
  'Implementation',
  'Tool',
  'Prompt',
  'Resource',
  'ResourceTemplate',
  'InitializeResult',
  'ServerCapabilities',
  'StringSchema',
  'NumberSchema',
  'BooleanSchema',
  'EnumSchema',
  'ElicitRequestFormParams',
  'CreateMessageRequestParams',
];

/** 2025-06-18 describes elicitation params inline, in the request. */
const CLOSED_2025_06_18 = [...CLOSED, 'ElicitRequest.params'];

/** What a server may send on its own in the legacy era. */
const SERVER_METHODS = new Set([
  'elicitation/create',
  'sampling/createMessage',
  'roots/list',
  'ping',
  'notifications/message',
  'notifications/progress',
  'notifications/cancelled',
  'notifications/tools/list_changed',
  'notifications/prompts/list_changed',
  'notifications/resources/list_changed',
  'notifications/resources/updated',
]);

const MODERN_RESULT_MEMBERS = ['resultType', 'ttlMs', 'cacheScope'];
const MODERN_ERROR_CODES = [-32020, -32021, -32022];

const validators = new Map<SpecRevision, WireValidator>();

function validatorFor(revision: SpecRevision): WireValidator {
  let validator = validators.get(revision);
  if (!validator) {
    const closed = revision === '2025-06-18' ? CLOSED_2025_06_18 : CLOSED;
    validator = WireValidator.load(revision, { closed });
    if (!validator) throw new Error(specMissingReason());
    validators.set(revision, validator);
  }
  return validator;
}

/**
 * The problems of every message in `written` (empty when all are valid). `methodOf` names the
 * method a response answers (by its id).
 */
export function wireProblems(
  revision: SpecRevision,
  written: readonly JsonRpcMessage[],
  methodOf: MethodOf,
): string[] {
  const problems = validatorFor(revision).problems(written, methodOf);
  for (const message of written) {
    const what = JSON.stringify(message).slice(0, 300);
    if ('method' in message) {
      if (!SERVER_METHODS.has(message.method))
        problems.push(`${what}: the server may not send ${message.method}`);
    } else if ('result' in message) {
      for (const member of MODERN_RESULT_MEMBERS)
        if (member in message.result)
          problems.push(`${what}: modern member ${member} on the legacy wire`);
    } else if (MODERN_ERROR_CODES.includes(message.error.code)) {
      problems.push(`${what}: modern error code on the legacy wire`);
    }
  }
  return problems;
}
