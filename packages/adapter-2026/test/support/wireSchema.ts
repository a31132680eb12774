import { existsSync } from 'node:fs';
import type { JsonRpcMessage } from '@rondo/protocol';
import { specSchemaPath, WireValidator } from '@rondo/test-support/specSchemas';

/**
 * The modern era's wire check, the way the official conformance suite does it: the shared spec
 * validator of 2026-07-28, plus what a modern server must not write (requests of its own,
 * notifications or error codes the revision does not define, answers to unknown methods).
 */

const schemaFile = specSchemaPath('2026-07-28');

/** Whether the spec schema is available; tests that need it skip (with a printed reason) when not. */
export const specAvailable = existsSync(schemaFile);
if (!specAvailable) {
  console.warn(
    `[adapter-2026] wire schema checks skipped: ${schemaFile} not found (set RONDO_SPEC_DIR)`,
  );
}

/** Error codes the 2026-07-28 schema defines. */
const DEFINED_ERROR_CODES = new Set([
  -32700, -32600, -32601, -32602, -32603, -32020, -32021, -32022,
]);

let validator: WireValidator | undefined;

/**
 * The schema violations in `messages`; `methodOf` names the method of the request an id answered.
 * An empty list means every message is valid.
 */
export function wireViolations(
  messages: readonly JsonRpcMessage[],
  methodOf: (id: string | number) => string | undefined,
): string[] {
  validator ??= WireValidator.load('2026-07-28');
  if (!validator) throw new Error(`${schemaFile} not found (set RONDO_SPEC_DIR)`);
  const modern = validator;
  const answered = (id: string | number | null | undefined) =>
    id === null || id === undefined ? undefined : methodOf(id);
  const problems = modern.problems(messages, answered);
  for (const message of messages) {
    if ('method' in message) {
      if ('id' in message) problems.push(`the server sent a request: ${JSON.stringify(message)}`);
      else if (!modern.definitionOf(message.method))
        problems.push(`unexpected notification ${message.method}`);
    } else if ('result' in message) {
      const method = answered(message.id);
      if (message.result.resultType !== 'input_required' && !method)
        problems.push(`no result definition for the answer to ${String(method)}`);
    } else if (!DEFINED_ERROR_CODES.has(message.error.code)) {
      problems.push(`error code ${message.error.code} is not defined by the 2026-07-28 schema`);
    }
  }
  return problems;
}
