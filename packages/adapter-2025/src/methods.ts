import { LOG_LEVELS, paginate, type Catalog, type LogLevel } from '@rondo/core';
import { ErrorCode, McpError, isPlainObject, withSerializedJson } from '@rondo/protocol';
import type { LegacyCall } from './call.js';
import { initialize } from './negotiation.js';
import { invalidParams, optionalObject, optionalStringRecord, requiredString } from './params.js';
import { shapeFor } from './revisionShape.js';
import { callTool, getPrompt, readResource } from './roundMethods.js';
import type { SessionState } from './sessionState.js';

/** One legacy method: reads the call's params and resolves with the result object. */
export type LegacyMethod = (
  state: SessionState,
  call: LegacyCall,
) => Promise<Record<string, unknown>>;

/**
 * Every request method of the legacy era. A method missing here is answered with -32601, so what
 * this era does not know (say, `server/discover`) is refused by its absence, not by a test.
 */
export const LEGACY_METHODS: ReadonlyMap<string, LegacyMethod> = new Map<string, LegacyMethod>([
  ['initialize', async (state, call) => initialize(state, call.params)],
  ['ping', async () => ({})],
  ['tools/list', listTools],
  ['tools/call', callTool],
  ['prompts/list', listPrompts],
  ['prompts/get', getPrompt],
  ['resources/list', listResources],
  ['resources/templates/list', listResourceTemplates],
  ['resources/read', readResource],
  ['resources/subscribe', subscribe],
  ['resources/unsubscribe', unsubscribe],
  ['completion/complete', complete],
  ['logging/setLevel', setLevel],
]);

/** Methods a client may send before `initialize` completed. */
export const BEFORE_INITIALIZE: ReadonlySet<string> = new Set(['initialize', 'ping']);

/** One kind of catalog list: its method, member, descriptor kind and the entries it pages. */
interface ListKind {
  method: string;
  member: string;
  shape: Parameters<typeof shapeFor>[0];
  entries(catalog: Catalog): readonly { definition: object }[];
}

const TOOLS: ListKind = {
  method: 'tools/list',
  member: 'tools',
  shape: 'tool',
  entries: (catalog) => catalog.tools,
};
const PROMPTS: ListKind = {
  method: 'prompts/list',
  member: 'prompts',
  shape: 'prompt',
  entries: (catalog) => catalog.prompts,
};
const RESOURCES: ListKind = {
  method: 'resources/list',
  member: 'resources',
  shape: 'resource',
  entries: (catalog) => catalog.resources,
};
const TEMPLATES: ListKind = {
  method: 'resources/templates/list',
  member: 'resourceTemplates',
  shape: 'resourceTemplate',
  entries: (catalog) => catalog.templates,
};

/**
 * One page of a list in the negotiated revision's shape. A page is built and serialised once per
 * catalog, revision and cursor, then reused as is.
 */
async function listPage(
  state: SessionState,
  call: LegacyCall,
  kind: ListKind,
): Promise<Record<string, unknown>> {
  const { server, lists } = state;
  const revision = state.session.revision;
  const cursor = call.params.cursor;
  const key = `${kind.method}\u0000${revision}\u0000${String(cursor)}`;
  const catalog = server.catalog;
  const page = lists.get(catalog, key, () => {
    const { items, nextCursor } = paginate(kind.entries(catalog), cursor, server.pageSize);
    const shaped = items.map((entry) => shapeFor(kind.shape, revision, entry.definition));
    return withSerializedJson(withCursor({ [kind.member]: shaped }, nextCursor));
  });
  return page;
}

function listTools(state: SessionState, call: LegacyCall): Promise<Record<string, unknown>> {
  return listPage(state, call, TOOLS);
}

function listPrompts(state: SessionState, call: LegacyCall): Promise<Record<string, unknown>> {
  return listPage(state, call, PROMPTS);
}

function listResources(state: SessionState, call: LegacyCall): Promise<Record<string, unknown>> {
  return listPage(state, call, RESOURCES);
}

function listResourceTemplates(
  state: SessionState,
  call: LegacyCall,
): Promise<Record<string, unknown>> {
  return listPage(state, call, TEMPLATES);
}

function withCursor(
  result: Record<string, unknown>,
  nextCursor: string | undefined,
): Record<string, unknown> {
  return nextCursor === undefined ? result : { ...result, nextCursor };
}

/** `resources/subscribe`: only when the server announced `resources.subscribe` at initialize. */
async function subscribe(state: SessionState, call: LegacyCall): Promise<Record<string, unknown>> {
  const resources = state.session.serverCapabilities.resources;
  if (!isPlainObject(resources) || resources.subscribe !== true) {
    throw new McpError(
      ErrorCode.MethodNotFound,
      'Method not found: resources/subscribe (no provider announces resource changes)',
    );
  }
  state.subscriptions.add(requiredString(call.params, 'uri', 'resources/subscribe'));
  return {};
}

async function unsubscribe(
  state: SessionState,
  call: LegacyCall,
): Promise<Record<string, unknown>> {
  state.subscriptions.delete(requiredString(call.params, 'uri', 'resources/unsubscribe'));
  return {};
}

async function complete(state: SessionState, call: LegacyCall): Promise<Record<string, unknown>> {
  const method = 'completion/complete';
  const ref = optionalObject(call.params, 'ref', method);
  const argument = optionalObject(call.params, 'argument', method);
  const context = optionalObject(call.params, 'context', method);
  const name = requiredString(argument, 'name', method);
  const value = requiredString(argument, 'value', method);
  const refValue =
    ref.type === 'ref/prompt'
      ? { type: 'ref/prompt' as const, name: requiredString(ref, 'name', method) }
      : ref.type === 'ref/resource'
        ? { type: 'ref/resource' as const, uri: requiredString(ref, 'uri', method) }
        : undefined;
  if (!refValue) throw invalidParams(method, 'ref.type must be ref/prompt or ref/resource');
  const completion = await state.server.complete({
    ref: refValue,
    argument: { name, value },
    context: { arguments: optionalStringRecord(context, 'arguments', method) },
  });
  return { completion };
}

async function setLevel(state: SessionState, call: LegacyCall): Promise<Record<string, unknown>> {
  const level = requiredString(call.params, 'level', 'logging/setLevel');
  if (!(LOG_LEVELS as readonly string[]).includes(level)) {
    throw invalidParams('logging/setLevel', `level must be one of ${LOG_LEVELS.join(', ')}`);
  }
  state.logLevel = level as LogLevel;
  return {};
}
