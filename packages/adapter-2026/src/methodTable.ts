import { modernRequestParams, type MethodTable } from '@rondo/protocol';
import { callTool, getPrompt, readResource } from './calls.js';
import {
  complete,
  discover,
  listPrompts,
  listResources,
  listResourceTemplates,
  listTools,
} from './queries.js';
import type { ModernRequest } from './request.js';
import type { RequiredCapability, WireResult } from './serverView.js';
import { listen } from './subscriptions.js';

/** The zod schema of one method's params, from `@rondo/protocol`. */
export type ParamsSchema = NonNullable<MethodTable[string]>;

/** How the modern era handles one method. */
export interface MethodEntry {
  readonly handle: (request: ModernRequest) => Promise<WireResult>;
  /** The params the method accepts; a request that does not match is -32602. */
  readonly params: ParamsSchema;
  /** The server capability the method belongs to; when the server lacks it the method is -32601. */
  readonly requires?: RequiredCapability;
  /** The request stays open until the client or the session ends it (not counted as in flight). */
  readonly longLived?: boolean;
}

function entry(
  method: string,
  handle: MethodEntry['handle'],
  extra: Partial<MethodEntry> = {},
): [string, MethodEntry] {
  const params = modernRequestParams[method];
  if (params === undefined) throw new Error(`@rondo/protocol has no params schema for ${method}`);
  return [method, { handle, params, ...extra }];
}

/**
 * Every method of the 2026-07-28 wire. A method missing here (`initialize`, `ping`,
 * `logging/setLevel`, `resources/subscribe`, anything unknown) is -32601 by its absence.
 */
export const MODERN_METHODS: ReadonlyMap<string, MethodEntry> = new Map<string, MethodEntry>([
  entry('server/discover', discover),
  entry('tools/list', listTools, { requires: 'tools' }),
  entry('tools/call', callTool, { requires: 'tools' }),
  entry('prompts/list', listPrompts, { requires: 'prompts' }),
  entry('prompts/get', getPrompt, { requires: 'prompts' }),
  entry('resources/list', listResources, { requires: 'resources' }),
  entry('resources/templates/list', listResourceTemplates, { requires: 'resources' }),
  entry('resources/read', readResource, { requires: 'resources' }),
  entry('completion/complete', complete, { requires: 'completions' }),
  entry('subscriptions/listen', listen, { longLived: true }),
]);
