import type { CacheableMethod, CachePolicy } from '@rondo/core';
import type { ProviderDescription } from './messages.js';

/** The `cache_policy/4` operation each cacheable method is asked under. */
const CACHE_OPERATIONS: Record<CacheableMethod, string> = {
  'server/discover': 'discover',
  'tools/list': 'tools_list',
  'prompts/list': 'prompts_list',
  'resources/list': 'resources_list',
  'resources/templates/list': 'resources_templates_list',
  'resources/read': 'resources_read',
};

/**
 * The cache policy of one cacheable request, from the rules `cache_policy/4` gave at start: the
 * rule for this key, else the rule for any request of the operation.
 */
export function cachePolicyOf(
  d: ProviderDescription,
  method: CacheableMethod,
  key: string | undefined,
): CachePolicy | undefined {
  const operation = CACHE_OPERATIONS[method];
  const rules = d.cache.filter((rule) => rule.operation === operation);
  const rule =
    rules.find((r) => key !== undefined && r.key === key) ?? rules.find((r) => r.key === undefined);
  return rule ? { ttlMs: rule.ttlMs, cacheScope: rule.cacheScope } : undefined;
}
