import type { TokenVerifier } from '@rondo/core';
import { urlOption } from './boundedFetch.js';
import { checkAlgorithms, DEFAULT_CLOCK_SKEW_SECONDS, verifyJwt } from './jwt.js';
import { RemoteKeySet } from './keySet.js';

/** Settings of a JWT verifier that reads its keys from the authorization server's JWKS URL. */
export interface JwksVerifierOptions {
  /** The authorization server's key set URL (its metadata's `jwks_uri`). */
  jwksUrl: string | URL;
  /** The issuer identifier the token's `iss` must equal (the authorization server's `issuer`). */
  issuer: string | readonly string[];
  /** What the token's `aud` must contain: this resource's canonical URL (RFC 8707). */
  audience: string | readonly string[];
  /** The signing algorithms accepted. Default: RS*, PS*, ES* and EdDSA; never `none` or `HS*`. */
  algorithms?: readonly string[];
  /** Slack allowed on `exp` and `nbf`, in seconds. Default 60. */
  clockSkewSeconds?: number;
  /** How long one fetch of the key set may take, in ms. Default 5000. */
  timeoutMs?: number;
  /** The largest key set read, in bytes. Default 256 KiB. */
  maxBytes?: number;
  /** Lifetime of a key set whose response has no `Cache-Control: max-age`, in ms. Default 10 min. */
  defaultCacheMs?: number;
  /** The least a key set is kept, whatever its `Cache-Control` says, in ms. Default 30 s. */
  minCacheMs?: number;
  /** The most a key set is kept, whatever its `Cache-Control` says, in ms. Default 24 h. */
  maxCacheMs?: number;
  /** The least time between refetches for an unknown `kid`, in ms. Default 30 s. */
  refetchCooldownMs?: number;
  /** How long after a failed fetch the next one waits (503 or the known keys meanwhile), in ms. Default 5 s. */
  failureCooldownMs?: number;
}

/** The asymmetric algorithms a key set's public keys verify. */
export const ASYMMETRIC_ALGORITHMS: readonly string[] = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  'Ed25519',
];

/**
 * A `verifyToken` for JWT access tokens signed by an authorization server's keys (RFC 9068): the
 * signature against its JWKS (fetched, cached by `Cache-Control`, refetched for a new `kid`), the
 * issuer, the audience, `exp` and `nbf` within the clock skew, and an allowed algorithm. A refused
 * token throws a `TokenRejectedError` whose reason the 401 carries; a key set that cannot be read
 * is `verifier_unavailable` (503).
 */
export function jwksVerifier(options: JwksVerifierOptions): TokenVerifier {
  const algorithms = options.algorithms ?? ASYMMETRIC_ALGORITHMS;
  checkAlgorithms(algorithms, false, 'jwksVerifier');
  const keys = new RemoteKeySet(urlOption(options.jwksUrl, 'jwksUrl', 'jwksVerifier'), {
    timeoutMs: options.timeoutMs ?? 5000,
    maxBytes: options.maxBytes ?? 256 * 1024,
    lifetime: {
      defaultMs: options.defaultCacheMs ?? 10 * 60_000,
      minMs: options.minCacheMs ?? 30_000,
      maxMs: options.maxCacheMs ?? 24 * 60 * 60_000,
    },
    refetchCooldownMs: options.refetchCooldownMs ?? 30_000,
    failureCooldownMs: options.failureCooldownMs ?? 5000,
    now: () => Date.now(),
  });
  const checks = {
    issuer: options.issuer,
    audience: options.audience,
    algorithms,
    clockSkewSeconds: options.clockSkewSeconds ?? DEFAULT_CLOCK_SKEW_SECONDS,
  };
  return (token) => verifyJwt(token, (header, jws) => keys.keyFor(header, jws), checks);
}
