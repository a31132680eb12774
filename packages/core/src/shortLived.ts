/** Deletions after which a short-lived collection moves its entries into a fresh one. */
const RENEW_AFTER_DELETIONS = 256;

/**
 * A `Map` for entries that come and go by the thousand a second and stay a moment each (the open
 * calls of a connection, its in-flight exchanges), which a long-lived `Map` holds badly: once the
 * `Map` has lived long enough to sit in V8's old generation, the values it deleted stay reachable
 * for the young-generation collector until the next full collection (measured: with 50 entries
 * live and constant churn, 60% of everything allocated survived each young collection, against 3%
 * with an array), so every call's objects are copied and promoted, and garbage collection takes
 * most of a busy gateway's CPU. Every 256 deletions the entries move
 * to a fresh `Map` (a few dozen, usually), which is young again; a dropped `Map` takes its dead
 * entries with it.
 */
export class ShortLivedMap<K, V> {
  private entries = new Map<K, V>();
  private deletions = 0;

  /** Entries now. */
  get size(): number {
    return this.entries.size;
  }

  /** The value of `key`, if present. */
  get(key: K): V | undefined {
    return this.entries.get(key);
  }

  /** True when `key` is present. */
  has(key: K): boolean {
    return this.entries.has(key);
  }

  /** Sets `key` to `value`. */
  set(key: K, value: V): this {
    this.entries.set(key, value);
    return this;
  }

  /** Removes `key`; false when it was absent. */
  delete(key: K): boolean {
    if (!this.entries.delete(key)) return false;
    if (++this.deletions >= RENEW_AFTER_DELETIONS) {
      this.entries = new Map(this.entries);
      this.deletions = 0;
    }
    return true;
  }

  /** Removes every entry. */
  clear(): void {
    this.entries = new Map();
    this.deletions = 0;
  }

  /** The keys, in insertion order (a snapshot is safest when the loop deletes). */
  keys(): IterableIterator<K> {
    return this.entries.keys();
  }

  /** The values, in insertion order (a snapshot is safest when the loop deletes). */
  values(): IterableIterator<V> {
    return this.entries.values();
  }
}

/** A `Set` for members that come and go by the thousand a second: see {@link ShortLivedMap}. */
export class ShortLivedSet<T> implements ReadonlySet<T> {
  private members = new Set<T>();
  private deletions = 0;

  /** Members now. */
  get size(): number {
    return this.members.size;
  }

  /** True when `value` is a member. */
  has(value: T): boolean {
    return this.members.has(value);
  }

  /** Adds `value`. */
  add(value: T): this {
    this.members.add(value);
    return this;
  }

  /** Removes `value`; false when it was not a member. */
  delete(value: T): boolean {
    if (!this.members.delete(value)) return false;
    if (++this.deletions >= RENEW_AFTER_DELETIONS) {
      this.members = new Set(this.members);
      this.deletions = 0;
    }
    return true;
  }

  /** Removes every member. */
  clear(): void {
    this.members = new Set();
    this.deletions = 0;
  }

  /** Calls `callback` with each member, in insertion order. */
  forEach(callback: (value: T, same: T, set: ReadonlySet<T>) => void): void {
    for (const value of this.members) callback(value, value, this);
  }

  /** Each member paired with itself, as `Set.entries` gives them. */
  entries(): IterableIterator<[T, T]> {
    return this.members.entries();
  }

  /** The members, in insertion order. */
  keys(): IterableIterator<T> {
    return this.members.keys();
  }

  /** The members, in insertion order. */
  values(): IterableIterator<T> {
    return this.members.values();
  }

  [Symbol.iterator](): IterableIterator<T> {
    return this.members.values();
  }
}
