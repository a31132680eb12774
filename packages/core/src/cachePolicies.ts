import type { CacheableMethod, CachePolicy } from './contracts/definitions.js';
import type { Provider } from './contracts/provider.js';
import type { CachePolicyRule } from './serverTypes.js';

/**
 * The cache policy of one cacheable result: the server's own rule wins, then the first provider
 * that has one, then the server's default.
 */
export function resolveCachePolicy(
  rule: CachePolicyRule | undefined,
  method: CacheableMethod,
  key: string | undefined,
  providers: readonly Provider[],
  fallback: CachePolicy,
): CachePolicy {
  const fromRule = typeof rule === 'function' ? rule(key) : rule;
  if (fromRule) return fromRule;
  for (const provider of providers) {
    const policy = provider.cachePolicy?.(method, key);
    if (policy) return policy;
  }
  return fallback;
}
