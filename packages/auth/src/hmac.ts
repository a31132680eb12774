import {
  ConfigurationError,
  TokenRejectedError,
  type TokenVerifier,
  type VerifiedToken,
} from '@rondo/core';
import { checkAlgorithms, DEFAULT_CLOCK_SKEW_SECONDS, verifyJwt } from './jwt.js';
import { sha256Hex } from './tokenHash.js';

/** Settings of a JWT verifier with a shared secret (HS256), for tests and internal services. */
export interface HmacVerifierOptions {
  /** The shared secret, at least 32 bytes (a string is read as UTF-8). */
  secret: string | Uint8Array;
  /** The issuer the token's `iss` must equal. */
  issuer: string | readonly string[];
  /** What the token's `aud` must contain: this resource's canonical URL. */
  audience: string | readonly string[];
  /** The HMAC algorithms accepted. Default: HS256. */
  algorithms?: readonly string[];
  /** Slack allowed on `exp` and `nbf`, in seconds. Default 60. */
  clockSkewSeconds?: number;
}

/** The shortest secret an HMAC verifier takes (RFC 7518: the key as long as the hash). */
export const MIN_HMAC_SECRET_BYTES = 32;

/**
 * A `verifyToken` for JWTs signed with a shared secret: the same claim checks and principal as
 * `jwksVerifier`, for services that mint their own tokens and for tests. Throws a
 * `ConfigurationError` for a secret shorter than 32 bytes or a non-HMAC algorithm.
 */
export function hmacVerifier(options: HmacVerifierOptions): TokenVerifier {
  const secret =
    typeof options.secret === 'string' ? new TextEncoder().encode(options.secret) : options.secret;
  if (secret.byteLength < MIN_HMAC_SECRET_BYTES)
    throw new ConfigurationError(
      `hmacVerifier: the secret has ${secret.byteLength} bytes; it needs at least ${MIN_HMAC_SECRET_BYTES}`,
    );
  const algorithms = options.algorithms ?? ['HS256'];
  checkAlgorithms(algorithms, true, 'hmacVerifier');
  const checks = {
    issuer: options.issuer,
    audience: options.audience,
    algorithms,
    clockSkewSeconds: options.clockSkewSeconds ?? DEFAULT_CLOCK_SKEW_SECONDS,
  };
  return (token) => verifyJwt(token, secret, checks);
}

/** What a static token stands for. */
export interface StaticTokenGrant {
  subject: string;
  scopes?: readonly string[];
  clientId?: string;
  claims?: VerifiedToken['claims'];
}

/** Settings of a verifier with a fixed table of tokens. */
export interface StaticTokenVerifierOptions {
  /** Each accepted token and who it stands for. */
  tokens: Readonly<Record<string, StaticTokenGrant>>;
  /** The audience reported for every token: this resource's canonical URL. */
  audience: string;
}

/**
 * A `verifyToken` with a fixed table of opaque tokens, for tests and internal services. Tokens are
 * looked up by their SHA-256, so the table holds no token and a lookup takes the same time for
 * every token. An unknown token is rejected as `inactive`.
 */
export function staticTokenVerifier(options: StaticTokenVerifierOptions): TokenVerifier {
  const table = Promise.all(
    Object.entries(options.tokens).map(
      async ([token, grant]) => [await sha256Hex(token), grant] as const,
    ),
  ).then((entries) => new Map(entries));
  return async (token) => {
    const grant = (await table).get(await sha256Hex(token));
    if (!grant) throw new TokenRejectedError('inactive', 'the token is not known to this resource');
    const verified: VerifiedToken = {
      subject: grant.subject,
      scopes: [...(grant.scopes ?? [])],
      audience: options.audience,
    };
    if (grant.clientId !== undefined) verified.clientId = grant.clientId;
    if (grant.claims) verified.claims = grant.claims;
    return verified;
  };
}
