import { existsSync, readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { JsonRpcMessage } from '@rondo/protocol';
import { specDir, specSchemaPath } from '../../../../test/support/specSchemas.js';

/**
 * Validates what a server wrote against the spec schema of the negotiated revision: 2025-06-18 is
 * draft-07 (`definitions`), 2025-11-25 is 2020-12 (`$defs`). Results are checked against the typed
 * result of the method they answer, notifications and server requests against their own definition.
 *
 * Definitions whose members the adapter shapes per revision are made closed here
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

const RESULT_DEFS: Record<string, string> = {
  initialize: 'InitializeResult',
  'tools/list': 'ListToolsResult',
  'tools/call': 'CallToolResult',
  'prompts/list': 'ListPromptsResult',
  'prompts/get': 'GetPromptResult',
  'resources/list': 'ListResourcesResult',
  'resources/templates/list': 'ListResourceTemplatesResult',
  'resources/read': 'ReadResourceResult',
  'completion/complete': 'CompleteResult',
  ping: 'EmptyResult',
  'logging/setLevel': 'EmptyResult',
  'resources/subscribe': 'EmptyResult',
  'resources/unsubscribe': 'EmptyResult',
};

const MESSAGE_DEFS: Record<string, string> = {
  'elicitation/create': 'ElicitRequest',
  'sampling/createMessage': 'CreateMessageRequest',
  'roots/list': 'ListRootsRequest',
  ping: 'PingRequest',
  'notifications/message': 'LoggingMessageNotification',
  'notifications/progress': 'ProgressNotification',
  'notifications/cancelled': 'CancelledNotification',
  'notifications/tools/list_changed': 'ToolListChangedNotification',
  'notifications/prompts/list_changed': 'PromptListChangedNotification',
  'notifications/resources/list_changed': 'ResourceListChangedNotification',
  'notifications/resources/updated': 'ResourceUpdatedNotification',
};

const validators = new Map<string, ValidateFunction>();
const loaded = new Map<SpecRevision, { ajv: Ajv | Ajv2020; pointer: string }>();

function load(revision: SpecRevision): { ajv: Ajv | Ajv2020; pointer: string } {
  let entry = loaded.get(revision);
  if (!entry) {
    const schema = JSON.parse(readFileSync(specSchemaPath(revision), 'utf8')) as Record<
      string,
      unknown
    >;
    const defsKey = revision === '2025-06-18' ? 'definitions' : '$defs';
    const defs = schema[defsKey] as Record<string, Record<string, unknown>>;
    for (const name of CLOSED)
      if (defs[name]) defs[name] = { ...defs[name], additionalProperties: false };
    if (revision === '2025-06-18') closeInlineElicitParams(defs);
    const ajv =
      revision === '2025-06-18'
        ? new Ajv({ strict: false, allErrors: true })
        : new Ajv2020({ strict: false, allErrors: true });
    // The few formats the schemas use, checked loosely (a scheme for URIs, base64 for bytes).
    ajv.addFormat('uri', /^[a-z][a-z0-9+.-]*:/i);
    ajv.addFormat('uri-template', /^[a-z][a-z0-9+.-]*:/i);
    ajv.addFormat('byte', /^[A-Za-z0-9+/]*={0,2}$/);
    ajv.addSchema(schema, 'mcp');
    entry = { ajv, pointer: `mcp#/${defsKey}/` };
    loaded.set(revision, entry);
  }
  return entry;
}

function closeInlineElicitParams(defs: Record<string, Record<string, unknown>>): void {
  const properties = defs.ElicitRequest!.properties as Record<string, Record<string, unknown>>;
  properties.params = { ...properties.params, additionalProperties: false };
}

function validator(revision: SpecRevision, def: string): ValidateFunction {
  const key = `${revision}:${def}`;
  let validate = validators.get(key);
  if (!validate) {
    const { ajv, pointer } = load(revision);
    validate = ajv.getSchema(`${pointer}${def}`);
    if (!validate) throw new Error(`no definition ${def} in ${revision}`);
    validators.set(key, validate);
  }
  return validate;
}

function check(
  revision: SpecRevision,
  def: string,
  value: unknown,
  problems: string[],
  what: string,
): void {
  const validate = validator(revision, def);
  if (!validate(value))
    problems.push(`${what} fails ${def}: ${JSON.stringify(validate.errors?.slice(0, 3))}`);
}

/**
 * The problems of every message in `written` (empty when all are valid). `methodOf` names the
 * method a response answers (by its id).
 */
export function wireProblems(
  revision: SpecRevision,
  written: readonly JsonRpcMessage[],
  methodOf: (id: unknown) => string | undefined,
): string[] {
  const problems: string[] = [];
  const responseDef = revision === '2025-06-18' ? 'JSONRPCResponse' : 'JSONRPCResultResponse';
  const errorDef = revision === '2025-06-18' ? 'JSONRPCError' : 'JSONRPCErrorResponse';
  for (const message of written) {
    const what = JSON.stringify(message).slice(0, 300);
    if ('method' in message) {
      check(
        revision,
        'id' in message ? 'JSONRPCRequest' : 'JSONRPCNotification',
        message,
        problems,
        what,
      );
      const def = MESSAGE_DEFS[message.method];
      if (def) check(revision, def, message, problems, what);
      else problems.push(`${what}: the server may not send ${message.method}`);
    } else if ('result' in message) {
      check(revision, responseDef, message, problems, what);
      const method = methodOf(message.id);
      const def = method === undefined ? undefined : RESULT_DEFS[method];
      if (def) check(revision, def, message.result, problems, what);
      for (const modern of ['resultType', 'ttlMs', 'cacheScope']) {
        if (modern in message.result)
          problems.push(`${what}: modern member ${modern} on the legacy wire`);
      }
    } else {
      check(revision, errorDef, message, problems, what);
      if ([-32020, -32021, -32022].includes(message.error.code))
        problems.push(`${what}: modern error code on the legacy wire`);
    }
  }
  return problems;
}
