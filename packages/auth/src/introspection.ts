import { TokenRejectedError, type TokenVerifier, type VerifiedToken } from '@rondo/core';
import { fetchBounded, jsonObjectOf, urlOption } from './boundedFetch.js';
import { audienceOf, verifiedFromClaims } from './claims.js';
import { DEFAULT_CLOCK_SKEW_SECONDS } from './jwt.js';
import { IntrospectionPacer } from './introspectionPacer.js';
import { KnownTokens, VerdictCache } from './verdictCache.js';

/** Settings of an OAuth 2.0 token introspection verifier (RFC 7662). */
export interface IntrospectionVerifierOptions {
  /** The authorization server's introspection endpoint. */
  endpoint: string | URL;
  /** This resource's client id at the authorization server. */
  clientId: string;
  /** Its client secret. */
  clientSecret: string;
  /** How the client authenticates: HTTP Basic (default) or form fields (RFC 6749 §2.3.1). */
  clientAuth?: 'client_secret_basic' | 'client_secret_post';
  /** What the answer's `aud` must contain: this resource's canonical URL. */
  audience: string | readonly string[];
  /** When set, the issuer the answer's `iss` must equal. */
  issuer?: string;
  /** Accept an answer with no `aud` (an authorization server that never sends one). Default false. */
  allowMissingAudience?: boolean;
  /** Slack allowed on `exp` and `nbf`, in seconds. Default 60. */
  clockSkewSeconds?: number;
  /** How long one introspection may take, in ms. Default 5000. */
  timeoutMs?: number;
  /** The largest introspection answer read, in bytes. Default 64 KiB. */
  maxBytes?: number;
  /** How long a verdict is reused (never past the token's `exp`), in ms. Default 30 s; 0 turns the cache off. */
  cacheTtlMs?: number;
  /** The most verdicts kept; the oldest goes first. Default 10,000. */
  maxCacheEntries?: number;
  /** Introspections of tokens not seen accepted before, at once. Default 4. */
  maxConcurrentNewTokens?: number;
  /** Introspections of tokens not seen accepted before, per second (after a burst of as many). Default 10. */
  newTokensPerSecond?: number;
}

/** The pacing of introspections for tokens not seen before, by default. */
export const INTROSPECTION_PACING_DEFAULTS = {
  maxConcurrentNewTokens: 4,
  newTokensPerSecond: 10,
} as const;

const WHAT = 'the introspection endpoint';

/**
 * A `verifyToken` that asks the authorization server about each token (RFC 7662), for opaque
 * tokens or for revocation that must take effect at once. Verdicts are cached for `cacheTtlMs`
 * under the token's SHA-256 (never the token), so a burst of requests with one token costs one
 * introspection. An inactive token is rejected as `inactive`; an endpoint that cannot be reached,
 * times out, refuses this resource's credentials or answers too much is `verifier_unavailable`.
 * Tokens not seen accepted before are paced (`maxConcurrentNewTokens`, `newTokensPerSecond`):
 * past the pace they get 503 with `Retry-After`, and the endpoint is not asked.
 */
export function introspectionVerifier(options: IntrospectionVerifierOptions): TokenVerifier {
  const endpoint = urlOption(options.endpoint, 'endpoint', 'introspectionVerifier');
  const skew = options.clockSkewSeconds ?? DEFAULT_CLOCK_SKEW_SECONDS;
  const bounds = { timeoutMs: options.timeoutMs ?? 5000, maxBytes: options.maxBytes ?? 64 * 1024 };
  const maxEntries = options.maxCacheEntries ?? 10_000;
  const cache = new VerdictCache(options.cacheTtlMs ?? 30_000, maxEntries);
  const pacer = new IntrospectionPacer(
    options.maxConcurrentNewTokens ?? INTROSPECTION_PACING_DEFAULTS.maxConcurrentNewTokens,
    options.newTokensPerSecond ?? INTROSPECTION_PACING_DEFAULTS.newTokensPerSecond,
  );
  const accepted = new KnownTokens(maxEntries);
  const introspect = async (token: string): Promise<VerifiedToken | TokenRejectedError> => {
    const response = await fetchBounded(endpoint, requestFor(token, options), bounds, WHAT);
    try {
      return judge(jsonObjectOf(response, WHAT), options, skew);
    } catch (error) {
      if (error instanceof TokenRejectedError && error.reason !== 'verifier_unavailable')
        return error;
      throw error;
    }
  };
  const judgePaced = async (token: string, key: string) => {
    const verdict = accepted.has(key)
      ? await introspect(token)
      : await pacer.run(() => introspect(token));
    if (verdict instanceof TokenRejectedError) accepted.forget(key);
    else accepted.add(key);
    return verdict;
  };
  return async (token) => {
    const verdict = await cache.get(token, judgePaced);
    if (verdict instanceof TokenRejectedError) throw verdict;
    return verdict;
  };
}

function requestFor(token: string, options: IntrospectionVerifierOptions): RequestInit {
  const form = new URLSearchParams({ token, token_type_hint: 'access_token' });
  const headers: Record<string, string> = {
    'content-type': 'application/x-www-form-urlencoded',
    accept: 'application/json',
  };
  if (options.clientAuth === 'client_secret_post') {
    form.set('client_id', options.clientId);
    form.set('client_secret', options.clientSecret);
  } else {
    // RFC 6749 §2.3.1: each part form-encoded before the Basic encoding.
    const user = `${formEncode(options.clientId)}:${formEncode(options.clientSecret)}`;
    headers.authorization = `Basic ${btoa(String.fromCharCode(...new TextEncoder().encode(user)))}`;
  }
  return { method: 'POST', headers, body: form.toString() };
}

function formEncode(value: string): string {
  return new URLSearchParams({ v: value }).toString().slice(2);
}

/** An introspection answer as the principal's facts, or the reason the token is refused. */
function judge(
  answer: Record<string, unknown>,
  options: IntrospectionVerifierOptions,
  skew: number,
): VerifiedToken {
  if (answer.active !== true)
    throw new TokenRejectedError(
      'inactive',
      'the token is not active (expired, revoked or unknown to the authorization server)',
    );
  const now = Date.now() / 1000;
  if (typeof answer.exp === 'number' && answer.exp + skew <= now)
    throw new TokenRejectedError('expired', 'the token has expired');
  if (typeof answer.nbf === 'number' && answer.nbf - skew > now)
    throw new TokenRejectedError('not_yet_valid', 'the token is not valid yet (nbf)');
  if (options.issuer !== undefined && answer.iss !== options.issuer)
    throw new TokenRejectedError('wrong_issuer', 'the token was issued by another issuer');
  const wanted = typeof options.audience === 'string' ? [options.audience] : options.audience;
  const audience = audienceOf(answer);
  if (audience.length === 0 && options.allowMissingAudience)
    return { ...verifiedFromClaims(answer, skew), audience: [...wanted] };
  if (!audience.some((entry) => wanted.includes(entry)))
    throw new TokenRejectedError(
      'wrong_audience',
      'the token was not issued for this resource (aud)',
    );
  return verifiedFromClaims(answer, skew);
}
