import type { TokenRejectedError, VerifiedToken } from '@rondo/core';
import { sha256Hex } from './tokenHash.js';

type Verdict = VerifiedToken | TokenRejectedError;

/**
 * Verdicts on tokens, keyed by the token's SHA-256 and kept for a short time, at most `maxEntries`
 * (the oldest is dropped first). Concurrent lookups of one token share one judgement. A judgement
 * that throws (the verifier is unavailable) is not kept.
 */
export class VerdictCache {
  readonly #entries = new Map<string, { verdict: Verdict; until: number }>();
  readonly #pending = new Map<string, Promise<Verdict>>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
  ) {}

  /** The verdict on `token`: a cached one, or `judge`'s (given the token and its hash), then kept. */
  async get(
    token: string,
    judge: (token: string, key: string) => Promise<Verdict>,
  ): Promise<Verdict> {
    const key = await sha256Hex(token);
    if (this.ttlMs <= 0) return judge(token, key);
    const cached = this.#entries.get(key);
    if (cached && cached.until > Date.now()) return cached.verdict;
    if (cached) this.#entries.delete(key);
    let pending = this.#pending.get(key);
    if (!pending) {
      pending = judge(token, key)
        .then((verdict) => {
          this.#keep(key, verdict);
          return verdict;
        })
        .finally(() => this.#pending.delete(key));
      this.#pending.set(key, pending);
    }
    return pending;
  }

  /** How many verdicts are kept. */
  get size(): number {
    return this.#entries.size;
  }

  #keep(key: string, verdict: Verdict): void {
    let until = Date.now() + this.ttlMs;
    // A verdict of acceptance never outlives the token.
    if (!(verdict instanceof Error) && verdict.expiresAt !== undefined)
      until = Math.min(until, verdict.expiresAt * 1000);
    if (this.#entries.size >= this.maxEntries) {
      const oldest = this.#entries.keys().next();
      if (!oldest.done) this.#entries.delete(oldest.value);
    }
    this.#entries.set(key, { verdict, until });
  }
}

/** Hashes of tokens once accepted, at most `maxEntries` (the least recently added goes first). */
export class KnownTokens {
  readonly #keys = new Set<string>();

  constructor(private readonly maxEntries: number) {}

  has(key: string): boolean {
    return this.#keys.has(key);
  }

  add(key: string): void {
    this.#keys.delete(key);
    this.#keys.add(key);
    if (this.#keys.size > this.maxEntries) {
      const oldest = this.#keys.values().next();
      if (!oldest.done) this.#keys.delete(oldest.value);
    }
  }

  forget(key: string): void {
    this.#keys.delete(key);
  }
}
