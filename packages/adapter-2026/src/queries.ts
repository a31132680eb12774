import { isPlainObject, withSerializedJson } from '@rondo/protocol';
import { paginate, type CacheableMethod, type CompletionRequest } from '@rondo/core';
import { invalidParams, requireString } from './params.js';
import type { ModernRequest } from './request.js';
import { withCachePolicy, type WireResult } from './serverView.js';

/** The single-answer methods of the modern era: discovery, the lists and completion. */

/** `server/discover`: versions, capabilities and instructions, with a cache policy. */
export async function discover(request: ModernRequest): Promise<WireResult> {
  const view = request.view;
  const result: WireResult = {
    supportedVersions: view.advertised,
    capabilities: view.capabilities(),
  };
  const instructions = view.server.info.instructions;
  if (instructions !== undefined) result.instructions = instructions;
  return withCachePolicy(result, view.server.cachePolicyFor('server/discover'));
}

/**
 * One page of a catalog list, in catalog (registration) order, so pages are deterministic. A page
 * is built, finished and serialised once per catalog and cache policy, then reused as is.
 */
function listPage(
  request: ModernRequest,
  method: CacheableMethod,
  member: string,
  entries: readonly { definition: unknown }[],
): WireResult {
  const { server, view } = request;
  const cursor = request.params.cursor;
  const policy = server.cachePolicyFor(method);
  const key = `${method}\u0000${policy.ttlMs}\u0000${policy.cacheScope}\u0000${String(cursor)}`;
  return view.lists.get(server.catalog, key, () => {
    const page = paginate(entries, cursor, server.pageSize);
    const result: WireResult = { [member]: page.items.map(definitionOf) };
    if (page.nextCursor !== undefined) result.nextCursor = page.nextCursor;
    return withSerializedJson(view.finish(withCachePolicy(result, policy)));
  });
}

function definitionOf(entry: { definition: unknown }): unknown {
  return entry.definition;
}

/** `tools/list`. */
export async function listTools(request: ModernRequest): Promise<WireResult> {
  return listPage(request, 'tools/list', 'tools', request.server.catalog.tools);
}

/** `prompts/list`. */
export async function listPrompts(request: ModernRequest): Promise<WireResult> {
  return listPage(request, 'prompts/list', 'prompts', request.server.catalog.prompts);
}

/** `resources/list`. */
export async function listResources(request: ModernRequest): Promise<WireResult> {
  return listPage(request, 'resources/list', 'resources', request.server.catalog.resources);
}

/** `resources/templates/list`. */
export async function listResourceTemplates(request: ModernRequest): Promise<WireResult> {
  return listPage(
    request,
    'resources/templates/list',
    'resourceTemplates',
    request.server.catalog.templates,
  );
}

/** `completion/complete`: values for one argument of a prompt or a resource template. */
export async function complete(request: ModernRequest): Promise<WireResult> {
  const completion = await request.server.complete(readCompletionRequest(request.params));
  const wire: WireResult = { values: completion.values };
  if (completion.total !== undefined) wire.total = completion.total;
  if (completion.hasMore !== undefined) wire.hasMore = completion.hasMore;
  return { completion: wire };
}

function readCompletionRequest(params: Record<string, unknown>): CompletionRequest {
  const { ref, argument, context } = params;
  if (!isPlainObject(ref)) throw invalidParams('ref must be an object');
  if (!isPlainObject(argument)) throw invalidParams('argument must be an object');
  const request: CompletionRequest = {
    ref:
      ref.type === 'ref/prompt'
        ? { type: 'ref/prompt', name: requireString(ref, 'name') }
        : ref.type === 'ref/resource'
          ? { type: 'ref/resource', uri: requireString(ref, 'uri') }
          : badRef(),
    argument: { name: requireString(argument, 'name'), value: requireString(argument, 'value') },
  };
  if (context !== undefined) {
    if (!isPlainObject(context)) throw invalidParams('context must be an object');
    const args = context.arguments;
    if (args !== undefined && !isPlainObject(args))
      throw invalidParams('context.arguments must be an object');
    if (args !== undefined) request.context = { arguments: args as Record<string, string> };
  }
  return request;
}

function badRef(): never {
  throw invalidParams('ref.type must be "ref/prompt" or "ref/resource"');
}
