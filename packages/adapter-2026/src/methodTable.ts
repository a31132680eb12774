import { modernRequestParams } from '@rondo/protocol/internal';
import type { EraMethod } from '@rondo/core/internal';
import { callTool, getPrompt, readResource } from './calls.js';
import {
  complete,
  discover,
  listPrompts,
  listResources,
  listResourceTemplates,
  listTools,
} from './queries.js';
import type { ModernServerView } from './serverView.js';
import { listen } from './subscriptions.js';

type ModernMethod = EraMethod<ModernServerView, never>;

function entry<P>(
  method: string,
  handle: EraMethod<ModernServerView, P>['handle'],
  extra: Omit<Partial<ModernMethod>, 'handle' | 'params'> = {},
): [string, ModernMethod] {
  const params = modernRequestParams[method];
  if (params === undefined) throw new Error(`@rondo/protocol has no params schema for ${method}`);
  return [method, { handle, params, ...extra }];
}

/**
 * Every method of the 2026-07-28 wire; the server's extensions add theirs (`tasks/get`, ...). A
 * method missing here (`initialize`, `ping`, `logging/setLevel`, `resources/subscribe`, anything
 * unknown) is -32601 by its absence.
 */
export const MODERN_METHODS: ReadonlyMap<string, ModernMethod> = new Map<string, ModernMethod>([
  entry('server/discover', discover),
  entry('tools/list', listTools, { requires: 'tools', intercepts: true }),
  entry('tools/call', callTool, { requires: 'tools', intercepts: true }),
  entry('prompts/list', listPrompts, { requires: 'prompts', intercepts: true }),
  entry('prompts/get', getPrompt, { requires: 'prompts', intercepts: true }),
  entry('resources/list', listResources, { requires: 'resources', intercepts: true }),
  entry('resources/templates/list', listResourceTemplates, {
    requires: 'resources',
    intercepts: true,
  }),
  entry('resources/read', readResource, { requires: 'resources', intercepts: true }),
  entry('completion/complete', complete, { requires: 'completions', intercepts: true }),
  entry('subscriptions/listen', listen, { longLived: true }),
]);
