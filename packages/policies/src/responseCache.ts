import { isMcpError } from '@rondo/protocol';
import type { Middleware, ProviderChange, ResponseCacheStore, RondoServer } from '@rondo/core';
import { runtimeOf } from '@rondo/core/internal';
import { cacheSlot, type CacheTarget, type CachedMethod, type SlotRules } from './cacheTarget.js';
import { MemoryResponseCache } from './memoryResponseCache.js';

/** Options of {@link responseCache}. */
export interface ResponseCacheOptions {
  /** The server whose catalog says what is read-only and whose changes drop cached answers. */
  server: RondoServer;
  /** Where answers live (default: this process's memory; `@rondo/redis`'s to share them). */
  store?: ResponseCacheStore;
  /**
   * How long an answer is kept, in ms, where the era's cache policy gives no `ttlMs` (tools, and
   * methods whose policy is 0); default 30 s. A method with a `ttlMs` keeps its answers that long.
   */
  ttlMs?: number;
  /** The methods cached (default: all of {@link CachedMethod}). */
  methods?: readonly CachedMethod[];
  /**
   * Items whose answer is the same for every caller, kept once for all (a `public` cache policy
   * marks resources and lists so too). Others are kept per principal.
   */
  shared?: (target: CacheTarget) => boolean;
  /** The largest answer kept, in characters of its JSON (default 1 Mi). */
  maxEntryChars?: number;
}

const ALL_METHODS: readonly CachedMethod[] = [
  'tools/call',
  'resources/read',
  'tools/list',
  'prompts/list',
  'resources/list',
  'resources/templates/list',
];

/**
 * Caches the answers of read-only calls: tools marked `readOnlyHint` or `idempotentHint`,
 * `resources/read` and the four lists. A list change drops that list's answers (and every tool
 * answer, for tools), a `resources/updated` the reads of that resource, heard from every replica
 * through the server's change bus. Only complete, successful answers are kept; a store that fails
 * is passed by (the call runs).
 */
export function responseCache(options: ResponseCacheOptions): Middleware {
  const runtime = runtimeOf(options.server);
  const store = options.store ?? new MemoryResponseCache();
  const rules: SlotRules = {
    methods: new Set(options.methods ?? ALL_METHODS),
    ttlMs: options.ttlMs ?? 30_000,
    shared: options.shared,
  };
  const maxChars = options.maxEntryChars ?? 1024 * 1024;
  // A change heard while a call ran makes its answer stale: it is not stored.
  const generations = new Map<string, number>();
  runtime.onChange((change) => {
    const group = groupOf(change);
    generations.set(group, (generations.get(group) ?? 0) + 1);
    if (generations.size > 10_000) generations.clear();
    void Promise.resolve()
      .then(() => store.drop(group))
      .catch(() => undefined);
  });
  return async (call, next) => {
    const slot = cacheSlot(call, runtime, rules);
    if (slot === undefined) return next();
    const cached = await Promise.resolve(store.get(slot.group, slot.key)).catch(() => undefined);
    if (cached !== undefined) return JSON.parse(cached) as never;
    const generation = generations.get(slot.group);
    const result = await next();
    if (!keepable(result) || generations.get(slot.group) !== generation) return result;
    const text = JSON.stringify(result);
    if (text.length <= maxChars) {
      await Promise.resolve(store.set(slot.group, slot.key, text, slot.ttlMs)).catch(
        () => undefined,
      );
    }
    return result;
  };
}

/** The cache group a change drops. */
function groupOf(change: ProviderChange): string {
  return change.kind === 'resource' ? `resource:${change.uri}` : change.kind;
}

/** Complete and successful: not an `input_required` round, not a tool error, not "no such resource". */
function keepable(result: unknown): boolean {
  if (result === undefined || result === null || typeof result !== 'object') return false;
  if (isMcpError(result)) return false;
  const kind = (result as { kind?: unknown }).kind;
  if (kind === 'input_required') return false;
  if (kind === 'complete') {
    const inner = (result as { result?: { kind?: unknown } }).result;
    return inner?.kind !== 'error';
  }
  return kind !== 'error';
}
