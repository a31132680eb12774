import { TokenRejectedError } from '@rondo/core';
import {
  createLocalJWKSet,
  errors,
  type FlattenedJWSInput,
  type JSONWebKeySet,
  type JWSHeaderParameters,
} from 'jose';
import { fetchBounded, jsonObjectOf, type FetchBounds } from './boundedFetch.js';
import { cacheLifetimeMs, type CacheLifetime } from './cacheControl.js';

type LocalKeySet = ReturnType<typeof createLocalJWKSet>;
type Key = Awaited<ReturnType<LocalKeySet>>;

/** The rules of one remote key set: its fetch bounds, its cache lifetime, its refetch pace. */
export interface KeySetRules extends FetchBounds {
  lifetime: CacheLifetime;
  /** The least time between two fetches caused by an unknown `kid`. */
  refetchCooldownMs: number;
  /**
   * After a failed fetch, how long the failure is answered from memory (no keys yet) or the keys
   * already known are used (a failed refresh) before the next try.
   */
  failureCooldownMs: number;
  now: () => number;
}

const WHAT = 'the key set (JWKS)';

/**
 * A JSON Web Key Set read from a URL and kept as its `Cache-Control` allows. One fetch at a time
 * serves every waiting request; an unknown `kid` refetches at most once per cooldown (so tokens
 * with made-up key ids cannot make this resource hammer the identity provider); a refresh that
 * fails keeps the keys already known.
 */
export class RemoteKeySet {
  #keys: LocalKeySet | undefined;
  #freshUntil = 0;
  #lastFetchAt = Number.NEGATIVE_INFINITY;
  #lastFailure: { at: number; error: TokenRejectedError } | undefined;
  #inFlight: Promise<void> | undefined;

  constructor(
    private readonly url: URL,
    private readonly rules: KeySetRules,
  ) {}

  /** The key a token's header names, fetching the set first when it is stale or the key is new. */
  async keyFor(header: JWSHeaderParameters, token: FlattenedJWSInput): Promise<Key> {
    if (!this.#keys || this.rules.now() >= this.#freshUntil) await this.#refresh(false);
    const keys = this.#keys as LocalKeySet;
    try {
      return await keys(header, token);
    } catch (error) {
      if (!(error instanceof errors.JWKSNoMatchingKey)) throw error;
      if (this.rules.now() - this.#lastFetchAt < this.rules.refetchCooldownMs) throw error;
      await this.#refresh(true);
      return await (this.#keys as LocalKeySet)(header, token);
    }
  }

  /** Fetches the set, or joins the fetch under way. `mustSucceed`: stale keys will not do. */
  async #refresh(mustSucceed: boolean): Promise<void> {
    const failure = this.#lastFailure;
    if (!this.#keys && failure && this.rules.now() - failure.at < this.rules.failureCooldownMs)
      throw failure.error;
    this.#inFlight ??= this.#fetch().finally(() => (this.#inFlight = undefined));
    try {
      await this.#inFlight;
    } catch (error) {
      if (mustSucceed || !this.#keys) throw error;
      // Stale keys still verify the tokens they signed while the identity provider is away.
    }
  }

  async #fetch(): Promise<void> {
    this.#lastFetchAt = this.rules.now();
    try {
      const response = await fetchBounded(
        this.url,
        { headers: { accept: 'application/json' } },
        this.rules,
        WHAT,
      );
      const body = jsonObjectOf(response, WHAT);
      const keys = createLocalJWKSet(body as unknown as JSONWebKeySet);
      this.#keys = keys;
      this.#lastFailure = undefined;
      this.#freshUntil =
        this.rules.now() +
        cacheLifetimeMs(response.headers.get('cache-control'), this.rules.lifetime);
    } catch (error) {
      const rejection =
        error instanceof TokenRejectedError
          ? error
          : new TokenRejectedError('verifier_unavailable', `${WHAT} is not a valid key set`, {
              cause: error,
            });
      this.#lastFailure = { at: this.rules.now(), error: rejection };
      // Known keys go on serving without a wait until the next try.
      if (this.#keys) this.#freshUntil = this.rules.now() + this.rules.failureCooldownMs;
      throw rejection;
    }
  }
}
