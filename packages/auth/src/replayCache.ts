/**
 * The proof identifiers (`jti`) seen within the acceptance window, so a proof is accepted once
 * (RFC 9449 §11.1). Bounded: past `maxEntries` the entries closest to expiry go first; a proof
 * older than what the cache still holds is past the window anyway unless the cache is undersized,
 * which `docs/limits.md` sizes against the request rate.
 */
export class ReplayCache {
  readonly #seen = new Map<string, number>();

  constructor(
    private readonly maxEntries: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Records `key` until `expiresAt` (ms); false when it was already recorded and not expired. */
  firstUse(key: string, expiresAt: number): boolean {
    const now = this.now();
    const seenUntil = this.#seen.get(key);
    if (seenUntil !== undefined && seenUntil > now) return false;
    this.#seen.delete(key);
    this.#seen.set(key, expiresAt);
    if (this.#seen.size > this.maxEntries) this.#evict(now);
    return true;
  }

  /** How many identifiers are held. */
  get size(): number {
    return this.#seen.size;
  }

  #evict(now: number): void {
    for (const [key, until] of this.#seen) if (until <= now) this.#seen.delete(key);
    // Insertion order is arrival order: the oldest arrivals expire first.
    for (const key of this.#seen.keys()) {
      if (this.#seen.size <= this.maxEntries) break;
      this.#seen.delete(key);
    }
  }
}
