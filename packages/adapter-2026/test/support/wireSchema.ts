import { existsSync, readFileSync } from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { JsonRpcMessage } from '@rondo/protocol';
import { specSchemaPath } from '../../../../test/support/specSchemas.js';

/**
 * Validates what a server wrote against the 2026-07-28 JSON Schema, the way the official
 * conformance suite does: results by their method's `<Method>Result` def (or `InputRequiredResult`),
 * errors as `JSONRPCErrorResponse` plus the def of their code, notifications by their method's def.
 */

const schemaFile = specSchemaPath('2026-07-28');

/** Whether the spec schema is available; tests that need it skip (with a printed reason) when not. */
export const specAvailable = existsSync(schemaFile);
if (!specAvailable) {
  console.warn(
    `[adapter-2026] wire schema checks skipped: ${schemaFile} not found (set RONDO_SPEC_DIR)`,
  );
}

const RESULT_DEFS: Readonly<Record<string, string>> = {
  'server/discover': 'DiscoverResult',
  'tools/list': 'ListToolsResult',
  'tools/call': 'CallToolResult',
  'prompts/list': 'ListPromptsResult',
  'prompts/get': 'GetPromptResult',
  'resources/list': 'ListResourcesResult',
  'resources/templates/list': 'ListResourceTemplatesResult',
  'resources/read': 'ReadResourceResult',
  'completion/complete': 'CompleteResult',
  'subscriptions/listen': 'SubscriptionsListenResult',
};

const NOTIFICATION_DEFS: Readonly<Record<string, string>> = {
  'notifications/progress': 'ProgressNotification',
  'notifications/message': 'LoggingMessageNotification',
  'notifications/subscriptions/acknowledged': 'SubscriptionsAcknowledgedNotification',
  'notifications/tools/list_changed': 'ToolListChangedNotification',
  'notifications/prompts/list_changed': 'PromptListChangedNotification',
  'notifications/resources/list_changed': 'ResourceListChangedNotification',
  'notifications/resources/updated': 'ResourceUpdatedNotification',
  'notifications/cancelled': 'CancelledNotification',
};

/** Error codes whose def describes the whole response. */
const ERROR_RESPONSE_DEFS: Readonly<Record<number, string>> = {
  [-32020]: 'HeaderMismatchError',
  [-32021]: 'MissingRequiredClientCapabilityError',
  [-32022]: 'UnsupportedProtocolVersionError',
};

/** Error codes whose def describes the error object. */
const ERROR_OBJECT_DEFS: Readonly<Record<number, string>> = {
  [-32700]: 'ParseError',
  [-32600]: 'InvalidRequestError',
  [-32601]: 'MethodNotFoundError',
  [-32602]: 'InvalidParamsError',
  [-32603]: 'InternalError',
};

let ajv: Ajv2020 | undefined;
const compiled = new Map<string, ValidateFunction>();

function validatorFor(def: string): ValidateFunction {
  let validate = compiled.get(def);
  if (validate) return validate;
  if (!ajv) {
    const addFormats = addFormatsModule as unknown as (instance: Ajv2020) => Ajv2020;
    ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));
    ajv.addSchema(JSON.parse(readFileSync(schemaFile, 'utf8')), 'mcp2026');
  }
  validate = ajv.compile({ $ref: `mcp2026#/$defs/${def}` });
  compiled.set(def, validate);
  return validate;
}

function check(def: string, value: unknown, what: string): string[] {
  const validate = validatorFor(def);
  if (validate(value)) return [];
  return [
    `${what} is not a valid ${def}: ${ajv!.errorsText(validate.errors)}\n  ${JSON.stringify(value)}`,
  ];
}

/**
 * The schema violations in `messages`; `methodOf` names the method of the request an id answered.
 * An empty list means every message is valid.
 */
export function wireViolations(
  messages: readonly JsonRpcMessage[],
  methodOf: (id: string | number) => string | undefined,
): string[] {
  const problems: string[] = [];
  for (const message of messages) {
    if ('method' in message) {
      const def = NOTIFICATION_DEFS[message.method];
      if ('id' in message) problems.push(`the server sent a request: ${JSON.stringify(message)}`);
      else if (!def) problems.push(`unexpected notification ${message.method}`);
      else problems.push(...check(def, message, message.method));
    } else if ('result' in message) {
      problems.push(...check('JSONRPCResultResponse', message, 'result response'));
      const method = methodOf(message.id);
      const def =
        message.result.resultType === 'input_required'
          ? 'InputRequiredResult'
          : method && RESULT_DEFS[method];
      if (!def) problems.push(`no result def for the answer to ${String(method)}`);
      else problems.push(...check(def, message.result, `result of ${method}`));
    } else {
      problems.push(...check('JSONRPCErrorResponse', message, 'error response'));
      const code = message.error.code;
      const responseDef = ERROR_RESPONSE_DEFS[code];
      const objectDef = ERROR_OBJECT_DEFS[code];
      if (responseDef) problems.push(...check(responseDef, message, `error ${code}`));
      else if (objectDef) problems.push(...check(objectDef, message.error, `error ${code}`));
      else problems.push(`error code ${code} is not defined by the 2026-07-28 schema`);
    }
  }
  return problems;
}
