import type { ModernPaginatedRequestParams } from '@rondo/protocol';
import type { CachePolicy } from '@rondo/core';
import {
  completeArgument,
  type EraMethod,
  listPage,
  listVariesByCaller,
  type CompleteParams,
  type ListMethod,
  type PageShape,
  type RequestCall,
  type WireResult,
} from '@rondo/core/internal';
import { withCachePolicy, type ModernServerView } from './serverView.js';

/** The single-answer methods of the modern era: discovery, the lists and completion. */

/** `server/discover`: versions, capabilities and instructions, with a cache policy. */
export async function discover(
  _call: RequestCall,
  _params: unknown,
  view: ModernServerView,
): Promise<WireResult> {
  const result: WireResult = {
    supportedVersions: view.advertised,
    capabilities: view.capabilities(),
  };
  const instructions = view.runtime.info.instructions;
  if (instructions !== undefined) result.instructions = instructions;
  return withCachePolicy(result, view.runtime.cachePolicyFor('server/discover'));
}

/** A list page with the method's cache policy; descriptors go out as the catalog holds them. */
function modernPage(
  method: ListMethod,
): EraMethod<ModernServerView, ModernPaginatedRequestParams>['handle'] {
  return async (call, params, view) => {
    const policy = privateWhenVaried(view.runtime.cachePolicyFor(method), view, method);
    const shape: PageShape = {
      variant: `${policy.ttlMs}\u0000${policy.cacheScope}`,
      descriptor: (_kind, definition) => definition,
      page: (result) => view.finish(withCachePolicy(result, policy)),
    };
    return listPage(call, view.runtime, view.lists, method, params.cursor, shape);
  };
}

/** `tools/list`. */
export const listTools = modernPage('tools/list');
/** `prompts/list`. */
export const listPrompts = modernPage('prompts/list');
/** `resources/list`. */
export const listResources = modernPage('resources/list');
/** `resources/templates/list`. */
export const listResourceTemplates = modernPage('resources/templates/list');

/** `completion/complete`: values for one argument of a prompt or a resource template. */
export function complete(
  call: RequestCall,
  params: CompleteParams,
  view: ModernServerView,
): Promise<WireResult> {
  return completeArgument(call, view.runtime, params);
}

/** A list that shows each caller something else may only be cached by that caller. */
function privateWhenVaried(
  policy: CachePolicy,
  view: ModernServerView,
  method: ListMethod,
): CachePolicy {
  if (policy.cacheScope === 'private' || !listVariesByCaller(view.runtime, method)) return policy;
  return { ...policy, cacheScope: 'private' };
}
