import {
  completeArgument,
  listPage,
  methodNotFound,
  type CompleteParams,
  type EraMethod,
  type ListMethod,
  type PageShape,
  type RequestCall,
  type WireResult,
  withExtensionMethods,
  type ServerRuntime,
} from '@rondo/core/internal';
import {
  isPlainObject,
  type InitializeRequestParams,
  type LegacyPaginatedRequestParams,
  type LegacyResourceRequestParams,
  type LoggingLevel,
} from '@rondo/protocol';
import { legacyRequestParams } from '@rondo/protocol/internal';
import { initialize } from './negotiation.js';
import { shapeFor } from './revisionShape.js';
import { callTool, getPrompt, readResource } from './roundMethods.js';
import type { SessionState } from './sessionState.js';

/** One legacy method, as the core pipeline runs it. */
export type LegacyMethod = EraMethod<SessionState, never>;

/** The handler of a legacy method whose params are `P`. */
type LegacyHandler<P> = EraMethod<SessionState, P>['handle'];

/** One method; `intercepts` when its handler runs its era-neutral steps inside the middleware. */
function entry<P>(
  method: string,
  handle: EraMethod<SessionState, P>['handle'],
  intercepts = false,
  requires?: EraMethod<SessionState, P>['requires'],
): [string, LegacyMethod] {
  const params = legacyRequestParams[method];
  if (params === undefined) throw new Error(`@rondo/protocol has no params schema for ${method}`);
  return [method, { params, handle, intercepts, ...(requires ? { requires } : {}) }];
}

/** A list page in the negotiated revision's shape. */
function legacyPage(method: ListMethod): LegacyHandler<LegacyPaginatedRequestParams> {
  return async (call, params, state) => {
    const revision = state.session.revision;
    const shape: PageShape = {
      variant: revision,
      descriptor: (kind, definition) => shapeFor(kind, revision, definition),
      page: (result) => result,
    };
    return listPage(call, state.runtime, state.lists, method, params.cursor, shape);
  };
}

/** `resources/subscribe`: only when the server announced `resources.subscribe` at initialize. */
async function subscribe(
  _call: RequestCall,
  params: LegacyResourceRequestParams,
  state: SessionState,
): Promise<WireResult> {
  const resources = state.session.serverCapabilities.resources;
  if (!isPlainObject(resources) || resources.subscribe !== true) {
    throw methodNotFound('resources/subscribe (no provider announces resource changes)');
  }
  state.subscribe(params.uri);
  return {};
}

async function unsubscribe(
  _call: RequestCall,
  params: LegacyResourceRequestParams,
  state: SessionState,
): Promise<WireResult> {
  state.unsubscribe(params.uri);
  return {};
}

async function setLevel(
  _call: RequestCall,
  params: { level: LoggingLevel },
  state: SessionState,
): Promise<WireResult> {
  state.logLevel = params.level;
  return {};
}

/**
 * Every request method of the legacy era. A method missing here is answered with -32601, so what
 * this era does not know (say, `server/discover`) is refused by its absence, not by a test.
 */
export const LEGACY_METHODS: ReadonlyMap<string, LegacyMethod> = new Map<string, LegacyMethod>([
  entry('initialize', async (_call, params: InitializeRequestParams, state) =>
    initialize(state, params),
  ),
  entry('ping', async () => ({})),
  entry('tools/list', legacyPage('tools/list'), true),
  entry('tools/call', callTool, true),
  entry('prompts/list', legacyPage('prompts/list'), true),
  entry('prompts/get', getPrompt, true),
  entry('resources/list', legacyPage('resources/list'), true),
  entry('resources/templates/list', legacyPage('resources/templates/list'), true),
  entry('resources/read', readResource, true),
  entry('resources/subscribe', subscribe),
  entry('resources/unsubscribe', unsubscribe),
  entry(
    'completion/complete',
    (call, params: CompleteParams, state) => completeArgument(call, state.runtime, params),
    true,
    // Not offered (no provider completes anything): -32601, as the modern era and Logtalk do.
    'completions',
  ),
  entry('logging/setLevel', setLevel),
]);

/** Each server's table: the legacy methods and its extensions' (thousands of sessions share one). */
const tables = new WeakMap<ServerRuntime, ReadonlyMap<string, LegacyMethod>>();

/** The legacy methods with the ones the server's extensions add to this era. */
export function legacyMethodsOf(runtime: ServerRuntime): ReadonlyMap<string, LegacyMethod> {
  let table = tables.get(runtime);
  if (table === undefined) {
    table = withExtensionMethods(LEGACY_METHODS, runtime, 'legacy');
    tables.set(runtime, table);
  }
  return table;
}

/** Methods a client may send before `initialize` completed. */
export const BEFORE_INITIALIZE: ReadonlySet<string> = new Set(['initialize', 'ping']);
