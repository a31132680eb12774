import type { z } from 'zod';
import { NotificationParamsSchema } from './common.js';
import { LegacyElicitRequestParamsSchema, ElicitResultSchema } from './elicitation.js';
import {
  InitializeRequestParamsSchema,
  InitializedNotificationParamsSchema,
  LegacyCallToolRequestParamsSchema,
  LegacyCancelledNotificationParamsSchema,
  LegacyCompleteRequestParamsSchema,
  LegacyGetPromptRequestParamsSchema,
  LegacyPaginatedRequestParamsSchema,
  LegacyRequestParamsSchema,
  LegacyResourceRequestParamsSchema,
  ProgressNotificationParamsSchema,
  RootsListChangedNotificationParamsSchema,
  SetLevelRequestParamsSchema,
} from './legacy.js';
import {
  InitializeResultSchema,
  LegacyCallToolResultSchema,
  LegacyCompleteResultSchema,
  LegacyEmptyResultSchema,
  LegacyGetPromptResultSchema,
  LegacyListPromptsResultSchema,
  LegacyListResourceTemplatesResultSchema,
  LegacyListResourcesResultSchema,
  LegacyListToolsResultSchema,
  LegacyReadResourceResultSchema,
} from './legacyResults.js';
import {
  ModernCallToolRequestParamsSchema,
  ModernCompleteRequestParamsSchema,
  ModernGetPromptRequestParamsSchema,
  ModernPaginatedRequestParamsSchema,
  ModernReadResourceRequestParamsSchema,
  ModernRequestParamsSchema,
  SubscriptionsListenRequestParamsSchema,
} from './modern.js';
import {
  DiscoverResultSchema,
  ModernCompleteResultSchema,
  ModernListPromptsResultSchema,
  ModernListResourceTemplatesResultSchema,
  ModernListResourcesResultSchema,
  ModernListToolsResultSchema,
  ModernPromptRoundResultSchema,
  ModernResourceRoundResultSchema,
  SubscriptionsListenResultSchema,
} from './modernResults.js';
import {
  DetailedTaskSchema,
  TaskRequestParamsSchema,
  UpdateTaskRequestParamsSchema,
} from './tasks.js';
import {
  GetTaskResultSchema,
  ModernToolOrTaskResultSchema,
  TaskAckResultSchema,
} from './taskResults.js';
import {
  ElicitationCompleteNotificationParamsSchema,
  LoggingMessageNotificationParamsSchema,
  ModernCancelledNotificationParamsSchema,
  ModernNotificationParamsSchema,
  ResourceUpdatedNotificationParamsSchema,
  SubscriptionsAcknowledgedNotificationParamsSchema,
} from './notifications.js';
import {
  CreateMessageRequestParamsSchema,
  CreateMessageResultSchema,
  ListRootsRequestParamsSchema,
  ListRootsResultSchema,
} from './sampling.js';
import { isPlainObject } from '../jsonrpc.js';
import { describeZodError } from './issues.js';
import { legacyQuickChecks, modernQuickChecks, type QuickCheck } from './quickChecks.js';

/**
 * Method tables: for each era, the schema of every message by method name. A method an era does
 * not know is absent from its table (look it up and answer -32601 when there is no entry). The
 * tables have no prototype, so `table['toString']` is `undefined` like any unknown method.
 */
export type MethodTable = Readonly<Record<string, z.ZodType>>;

function methodTable(entries: Record<string, z.ZodType>): MethodTable {
  return Object.freeze(Object.assign(Object.create(null) as Record<string, z.ZodType>, entries));
}

/** Params of the requests a legacy client sends, by method. */
export const legacyRequestParams: MethodTable = methodTable({
  initialize: InitializeRequestParamsSchema,
  ping: LegacyRequestParamsSchema,
  'tools/list': LegacyPaginatedRequestParamsSchema,
  'tools/call': LegacyCallToolRequestParamsSchema,
  'prompts/list': LegacyPaginatedRequestParamsSchema,
  'prompts/get': LegacyGetPromptRequestParamsSchema,
  'resources/list': LegacyPaginatedRequestParamsSchema,
  'resources/templates/list': LegacyPaginatedRequestParamsSchema,
  'resources/read': LegacyResourceRequestParamsSchema,
  'resources/subscribe': LegacyResourceRequestParamsSchema,
  'resources/unsubscribe': LegacyResourceRequestParamsSchema,
  'completion/complete': LegacyCompleteRequestParamsSchema,
  'logging/setLevel': SetLevelRequestParamsSchema,
});

/** Params of the requests a modern client sends, by method. */
export const modernRequestParams: MethodTable = methodTable({
  'server/discover': ModernRequestParamsSchema,
  'tools/list': ModernPaginatedRequestParamsSchema,
  'tools/call': ModernCallToolRequestParamsSchema,
  'prompts/list': ModernPaginatedRequestParamsSchema,
  'prompts/get': ModernGetPromptRequestParamsSchema,
  'resources/list': ModernPaginatedRequestParamsSchema,
  'resources/templates/list': ModernPaginatedRequestParamsSchema,
  'resources/read': ModernReadResourceRequestParamsSchema,
  'completion/complete': ModernCompleteRequestParamsSchema,
  'subscriptions/listen': SubscriptionsListenRequestParamsSchema,
  'tasks/get': TaskRequestParamsSchema,
  'tasks/update': UpdateTaskRequestParamsSchema,
  'tasks/cancel': TaskRequestParamsSchema,
});

/** Params of the notifications a legacy client sends, by method. */
export const legacyNotificationParams: MethodTable = methodTable({
  'notifications/initialized': InitializedNotificationParamsSchema,
  'notifications/cancelled': LegacyCancelledNotificationParamsSchema,
  'notifications/progress': ProgressNotificationParamsSchema,
  'notifications/roots/list_changed': RootsListChangedNotificationParamsSchema,
});

/** Params of the notifications a modern client sends, by method. */
export const modernNotificationParams: MethodTable = methodTable({
  'notifications/cancelled': ModernCancelledNotificationParamsSchema,
});

/** The result a server sends to a legacy client, by request method. */
export const legacyResults: MethodTable = methodTable({
  initialize: InitializeResultSchema,
  ping: LegacyEmptyResultSchema,
  'tools/list': LegacyListToolsResultSchema,
  'tools/call': LegacyCallToolResultSchema,
  'prompts/list': LegacyListPromptsResultSchema,
  'prompts/get': LegacyGetPromptResultSchema,
  'resources/list': LegacyListResourcesResultSchema,
  'resources/templates/list': LegacyListResourceTemplatesResultSchema,
  'resources/read': LegacyReadResourceResultSchema,
  'resources/subscribe': LegacyEmptyResultSchema,
  'resources/unsubscribe': LegacyEmptyResultSchema,
  'completion/complete': LegacyCompleteResultSchema,
  'logging/setLevel': LegacyEmptyResultSchema,
});

/** The result a server sends to a modern client, by request method. */
export const modernResults: MethodTable = methodTable({
  'server/discover': DiscoverResultSchema,
  'tools/list': ModernListToolsResultSchema,
  'tools/call': ModernToolOrTaskResultSchema,
  'prompts/list': ModernListPromptsResultSchema,
  'prompts/get': ModernPromptRoundResultSchema,
  'resources/list': ModernListResourcesResultSchema,
  'resources/templates/list': ModernListResourceTemplatesResultSchema,
  'resources/read': ModernResourceRoundResultSchema,
  'completion/complete': ModernCompleteResultSchema,
  'subscriptions/listen': SubscriptionsListenResultSchema,
  'tasks/get': GetTaskResultSchema,
  'tasks/update': TaskAckResultSchema,
  'tasks/cancel': TaskAckResultSchema,
});

/** Params of the notifications a server sends to a legacy client, by method. */
export const legacyServerNotificationParams: MethodTable = methodTable({
  'notifications/cancelled': LegacyCancelledNotificationParamsSchema,
  'notifications/progress': ProgressNotificationParamsSchema,
  'notifications/message': LoggingMessageNotificationParamsSchema,
  'notifications/resources/updated': ResourceUpdatedNotificationParamsSchema,
  'notifications/resources/list_changed': NotificationParamsSchema,
  'notifications/tools/list_changed': NotificationParamsSchema,
  'notifications/prompts/list_changed': NotificationParamsSchema,
  'notifications/elicitation/complete': ElicitationCompleteNotificationParamsSchema,
});

/** Params of the notifications a server sends to a modern client, by method. */
export const modernServerNotificationParams: MethodTable = methodTable({
  'notifications/cancelled': ModernCancelledNotificationParamsSchema,
  'notifications/progress': ProgressNotificationParamsSchema,
  'notifications/message': LoggingMessageNotificationParamsSchema,
  'notifications/resources/updated': ResourceUpdatedNotificationParamsSchema,
  'notifications/resources/list_changed': ModernNotificationParamsSchema,
  'notifications/tools/list_changed': ModernNotificationParamsSchema,
  'notifications/prompts/list_changed': ModernNotificationParamsSchema,
  'notifications/subscriptions/acknowledged': SubscriptionsAcknowledgedNotificationParamsSchema,
  'notifications/tasks': DetailedTaskSchema,
});

/** Params of the requests a legacy server sends to its client, by method. */
export const legacyServerRequestParams: MethodTable = methodTable({
  ping: LegacyRequestParamsSchema,
  'elicitation/create': LegacyElicitRequestParamsSchema,
  'sampling/createMessage': CreateMessageRequestParamsSchema,
  'roots/list': ListRootsRequestParamsSchema,
});

/** The client's answers to those requests, by method. */
export const legacyClientResults: MethodTable = methodTable({
  ping: LegacyEmptyResultSchema,
  'elicitation/create': ElicitResultSchema,
  'sampling/createMessage': CreateMessageResultSchema,
  'roots/list': ListRootsResultSchema,
});

/** The quick checks of the request params schemas (see quickChecks.ts), by schema. */
const quickChecks = new WeakMap<z.ZodType, QuickCheck>();
for (const [table, checks] of [
  [legacyRequestParams, legacyQuickChecks],
  [modernRequestParams, modernQuickChecks],
] as const) {
  for (const [method, check] of Object.entries(checks)) {
    const schema = table[method];
    if (schema !== undefined) quickChecks.set(schema, check);
  }
}

/** The outcome of `parseRequestParams` (in `@rondo/protocol/internal`). */
export type ParamsOutcome<T> = { ok: true; value: T } | { ok: false; message: string };

/**
 * Validates a message's params against a schema from one of the tables. Absent params are checked
 * as `{}`, so a request that needs members fails naming the first missing one. On failure,
 * `message` names the member path, such as `params.name: expected string`, ready to be the text
 * of a -32602 Invalid params error.
 */
export function parseRequestParams<S extends z.ZodType>(
  schema: S,
  params: unknown,
): ParamsOutcome<z.output<S>> {
  const value = params === undefined ? {} : params;
  // Well-formed params of the busy methods pass a hand-written check; zod judges the rest.
  const quick = quickChecks.get(schema);
  if (quick !== undefined && isPlainObject(value) && quick(value)) {
    return { ok: true, value: value as z.output<S> };
  }
  const parsed = schema.safeParse(value);
  return parsed.success
    ? { ok: true, value: parsed.data }
    : { ok: false, message: describeZodError(parsed.error, 'params') };
}
