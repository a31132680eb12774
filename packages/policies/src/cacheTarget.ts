import type { CacheableMethod, McpCall, Principal } from '@rondo/core';
import { stableStringify, type ServerRuntime } from '@rondo/core/internal';

/** The methods whose answers {@link responseCache} may keep. */
export type CachedMethod =
  | 'tools/call'
  | 'resources/read'
  | 'tools/list'
  | 'prompts/list'
  | 'resources/list'
  | 'resources/templates/list';

/** What a cached answer is of, for {@link ResponseCacheOptions.shared}. */
export interface CacheTarget {
  method: CachedMethod;
  /** The tool's name (`tools/call`). */
  name?: string;
  /** The resource's URI (`resources/read`). */
  uri?: string;
}

/** Where and how long one call's answer may be kept. */
export interface CacheSlot {
  /** What a change drops at once (`tools`, `prompts`, `resources`, `resource:<uri>`). */
  group: string;
  key: string;
  ttlMs: number;
}

const LISTS: Record<
  string,
  { group: string; list: 'tools' | 'prompts' | 'resources' | 'templates' }
> = {
  'tools/list': { group: 'tools', list: 'tools' },
  'prompts/list': { group: 'prompts', list: 'prompts' },
  'resources/list': { group: 'resources', list: 'resources' },
  'resources/templates/list': { group: 'resources', list: 'templates' },
};

/** The choices of the cache that decide a slot. */
export interface SlotRules {
  methods: ReadonlySet<string>;
  ttlMs: number;
  shared: ((target: CacheTarget) => boolean) | undefined;
}

/**
 * The slot of a call whose answer may be cached, or undefined: a first round of a read-only call
 * (a tool marked `readOnlyHint` or `idempotentHint`, `resources/read`, a list page). The key holds
 * the caller (its principal and scopes) unless the item is shared: marked so, or `public` in the
 * era's cache policy, and seen and callable alike by everyone (no visibility rule, no scopes).
 */
export function cacheSlot(
  call: McpCall,
  runtime: ServerRuntime,
  rules: SlotRules,
): CacheSlot | undefined {
  if (call.round !== 1 || !rules.methods.has(call.method) || !runtime.isReady) return undefined;
  const catalog = runtime.catalog;
  const params = call.params;
  if (call.method === 'tools/call') {
    const name = String(params.name);
    const entry = catalog.tool(name);
    const hints = entry?.definition.annotations;
    if (!entry || !(hints?.readOnlyHint === true || hints?.idempotentHint === true))
      return undefined;
    if (entry.task.support !== 'forbidden') return undefined;
    const open = entry.visible === undefined && entry.scopes === undefined;
    const shared = open && rules.shared?.({ method: 'tools/call', name }) === true;
    const key = `tools/call|${name}|${stableStringify(params.arguments ?? {})}`;
    return { group: 'tools', key: keyFor(key, shared, call.principal), ttlMs: rules.ttlMs };
  }
  if (call.method === 'resources/read') {
    const uri = String(params.uri);
    const policy = runtime.cachePolicyFor('resources/read', uri);
    const entry = catalog.resource(uri);
    const open = entry !== undefined && entry.visible === undefined && entry.scopes === undefined;
    const marked =
      policy.cacheScope === 'public' || rules.shared?.({ method: 'resources/read', uri });
    const shared = open && marked === true;
    const ttlMs = policy.ttlMs > 0 ? policy.ttlMs : rules.ttlMs;
    return { group: `resource:${uri}`, key: keyFor(`read|${uri}`, shared, call.principal), ttlMs };
  }
  const list = LISTS[call.method];
  if (list === undefined) return undefined;
  const method = call.method as CacheableMethod & CachedMethod;
  const policy = runtime.cachePolicyFor(method);
  const marked = policy.cacheScope === 'public' || rules.shared?.({ method });
  const shared = marked === true && !catalog.variesByCaller(list.list);
  const cursor = typeof params.cursor === 'string' ? params.cursor : '';
  const key = `${method}|${cursor}`;
  const ttlMs = policy.ttlMs > 0 ? policy.ttlMs : rules.ttlMs;
  return { group: list.group, key: keyFor(key, shared, call.principal), ttlMs };
}

/** The key of an answer: shared by everyone, or the caller's own (its scopes too: a step-up changes what it may see). */
function keyFor(base: string, shared: boolean, principal: Principal | undefined): string {
  if (shared) return `${base}|*`;
  if (principal === undefined) return `${base}|-`;
  const scopes = [...(principal.scopes ?? [])].sort().join(' ');
  return `${base}|${JSON.stringify([principal.id, scopes])}`;
}
