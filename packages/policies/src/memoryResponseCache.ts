import type { ResponseCacheStore } from '@rondo/core';

/** Options of {@link MemoryResponseCache}. */
export interface MemoryResponseCacheOptions {
  /** Entries kept at most (default 10,000). */
  maxEntries?: number;
  /** Characters of keys and values kept at most (default 64 Mi, about 128 MiB). */
  maxChars?: number;
  /** The clock, for tests (default `Date.now`). */
  now?: () => number;
}

interface CacheEntry {
  group: string;
  value: string;
  expiresAt: number;
}

/**
 * A response cache in this process's memory, bounded in entries and characters (the least
 * recently stored dropped first). Each replica keeps its own; they stay correct together because
 * every replica hears every change through the shared change bus and drops what it caches.
 */
export class MemoryResponseCache implements ResponseCacheStore {
  private readonly entries = new Map<string, CacheEntry>();
  private readonly groups = new Map<string, Set<string>>();
  private readonly maxEntries: number;
  private readonly maxChars: number;
  private readonly now: () => number;
  private chars = 0;

  constructor(options: MemoryResponseCacheOptions = {}) {
    this.maxEntries = Math.max(1, options.maxEntries ?? 10_000);
    this.maxChars = Math.max(1, options.maxChars ?? 64 * 1024 * 1024);
    this.now = options.now ?? Date.now;
  }

  /** Entries held now. */
  get size(): number {
    return this.entries.size;
  }

  get(group: string, key: string): string | undefined {
    const id = entryId(group, key);
    const entry = this.entries.get(id);
    if (entry === undefined) return undefined;
    if (entry.expiresAt > this.now()) return entry.value;
    this.remove(id, entry);
    return undefined;
  }

  set(group: string, key: string, value: string, ttlMs: number): void {
    const id = entryId(group, key);
    const size = id.length + value.length;
    if (ttlMs <= 0 || size > this.maxChars) return;
    const old = this.entries.get(id);
    if (old !== undefined) this.remove(id, old);
    while (this.entries.size >= this.maxEntries || this.chars + size > this.maxChars) {
      const [oldestId, oldest] = this.entries.entries().next().value as [string, CacheEntry];
      this.remove(oldestId, oldest);
    }
    this.entries.set(id, { group, value, expiresAt: this.now() + ttlMs });
    this.chars += size;
    let members = this.groups.get(group);
    if (members === undefined) this.groups.set(group, (members = new Set()));
    members.add(id);
  }

  drop(group: string): void {
    const members = this.groups.get(group);
    if (members === undefined) return;
    for (const id of [...members]) {
      const entry = this.entries.get(id);
      if (entry !== undefined) this.remove(id, entry);
    }
    this.groups.delete(group);
  }

  private remove(id: string, entry: CacheEntry): void {
    this.entries.delete(id);
    this.chars -= id.length + entry.value.length;
    const members = this.groups.get(entry.group);
    members?.delete(id);
    if (members?.size === 0) this.groups.delete(entry.group);
  }
}

function entryId(group: string, key: string): string {
  return `${group}\u0000${key}`;
}
