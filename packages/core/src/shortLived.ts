/**
 * Deletions after which a short-lived collection moves its entries into a fresh one: at least 256,
 * and four times the entries it holds, so a table of thousands open copies at most a quarter of an
 * entry per deletion.
 */
const RENEW_AFTER_DELETIONS = 256;

function renewsAfter(deletions: number, size: number): boolean {
  return deletions >= RENEW_AFTER_DELETIONS && deletions >= 4 * size;
}

/**
 * A `Map` for entries that come and go by the thousand a second and stay a moment each (the open
 * calls of a connection, its in-flight exchanges), which a long-lived `Map` holds badly: once the
 * `Map` has lived long enough to sit in V8's old generation, the values it deleted stay reachable
 * for the young-generation collector until the next full collection (measured: with 50 entries
 * live and constant churn, 60% of everything allocated survived each young collection, against 3%
 * with an array), so every call's objects are copied and promoted, and garbage collection takes
 * most of a busy gateway's CPU. Every 256 deletions (or four times its size) the entries move
 * to a fresh `Map` (a few dozen, usually), which is young again; a dropped `Map` takes its dead
 * entries with it.
 */
export class ShortLivedMap<K, V> implements ReadonlyMap<K, V> {
  private table = new Map<K, V>();
  private deletions = 0;

  /** Entries now. */
  get size(): number {
    return this.table.size;
  }

  /** The value of `key`, if present. */
  get(key: K): V | undefined {
    return this.table.get(key);
  }

  /** True when `key` is present. */
  has(key: K): boolean {
    return this.table.has(key);
  }

  /** Sets `key` to `value`. */
  set(key: K, value: V): this {
    this.table.set(key, value);
    return this;
  }

  /** Removes `key`; false when it was absent. */
  delete(key: K): boolean {
    if (!this.table.delete(key)) return false;
    if (renewsAfter(++this.deletions, this.table.size)) {
      this.table = new Map(this.table);
      this.deletions = 0;
    }
    return true;
  }

  /** Removes every entry. */
  clear(): void {
    this.table = new Map();
    this.deletions = 0;
  }

  /** Calls `callback` with each entry, in insertion order. */
  forEach(callback: (value: V, key: K, map: ReadonlyMap<K, V>) => void): void {
    for (const [key, value] of this.table) callback(value, key, this);
  }

  /** The keys, in insertion order (a snapshot is safest when the loop deletes). */
  keys(): IterableIterator<K> {
    return this.table.keys();
  }

  /** The values, in insertion order (a snapshot is safest when the loop deletes). */
  values(): IterableIterator<V> {
    return this.table.values();
  }

  /** The entries, in insertion order (a snapshot is safest when the loop deletes). */
  entries(): IterableIterator<[K, V]> {
    return this.table.entries();
  }

  [Symbol.iterator](): IterableIterator<[K, V]> {
    return this.table.entries();
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
    if (renewsAfter(++this.deletions, this.members.size)) {
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
