import { ConfigurationError, TokenRejectedError, type VerifiedToken } from '@rondo/core';
import { decodeProtectedHeader, errors, jwtVerify, type JWTVerifyGetKey } from 'jose';
import { verifiedFromClaims } from './claims.js';

/** The claim checks every JWT verifier makes. */
export interface JwtChecks {
  issuer: string | readonly string[];
  audience: string | readonly string[];
  algorithms: readonly string[];
  clockSkewSeconds: number;
}

/** The default clock skew: the one Spring Security and most resource servers allow. */
export const DEFAULT_CLOCK_SKEW_SECONDS = 60;

/** Refuses an algorithm list a verifier must never use (`none`; `HS*` where keys are public). */
export function checkAlgorithms(
  algorithms: readonly string[],
  allowSymmetric: boolean,
  verifier: string,
): void {
  if (algorithms.length === 0)
    throw new ConfigurationError(`${verifier}: the list of allowed algorithms is empty`);
  for (const alg of algorithms) {
    if (alg.toLowerCase() === 'none')
      throw new ConfigurationError(`${verifier}: the algorithm "none" is never allowed`);
    if (/^HS/i.test(alg) !== allowSymmetric)
      throw new ConfigurationError(
        allowSymmetric
          ? `${verifier}: only HMAC algorithms (HS256, HS384, HS512) verify with a shared secret, not ${alg}`
          : `${verifier}: ${alg} is symmetric; a key set holds public keys, which must never verify an HMAC`,
      );
  }
}

/**
 * Verifies a JWT's signature and claims and maps them to the principal's facts. Every refusal is a
 * `TokenRejectedError` with a reason; nothing of the token reaches its description.
 */
export async function verifyJwt(
  token: string,
  key: Uint8Array | JWTVerifyGetKey,
  checks: JwtChecks,
): Promise<VerifiedToken> {
  let alg: unknown;
  try {
    alg = decodeProtectedHeader(token).alg;
  } catch {
    throw new TokenRejectedError('malformed', 'the token is not a signed JWT');
  }
  if (typeof alg !== 'string' || !checks.algorithms.includes(alg))
    throw new TokenRejectedError(
      'algorithm_not_allowed',
      `the token's signing algorithm is not one this resource accepts (${checks.algorithms.join(', ')})`,
    );
  try {
    const options = {
      issuer: toList(checks.issuer),
      audience: toList(checks.audience),
      algorithms: [...checks.algorithms],
      clockTolerance: checks.clockSkewSeconds,
      requiredClaims: ['exp'],
    };
    const { payload } =
      key instanceof Uint8Array
        ? await jwtVerify(token, key, options)
        : await jwtVerify(token, key, options);
    return verifiedFromClaims(payload, checks.clockSkewSeconds);
  } catch (error) {
    throw rejectionOf(error);
  }
}

function toList(value: string | readonly string[]): string[] {
  return typeof value === 'string' ? [value] : [...value];
}

const CLAIM_REJECTIONS: Record<string, [TokenRejectedError['reason'], string]> = {
  iss: ['wrong_issuer', 'the token was issued by another issuer'],
  aud: ['wrong_audience', 'the token was not issued for this resource (aud)'],
  nbf: ['not_yet_valid', 'the token is not valid yet (nbf)'],
  exp: ['invalid_claims', 'the token has no expiry (exp)'],
};

/** A jose failure as the rejection a client may read. */
function rejectionOf(error: unknown): TokenRejectedError {
  if (error instanceof TokenRejectedError) return error;
  if (error instanceof errors.JWTExpired)
    return new TokenRejectedError('expired', 'the token has expired');
  if (error instanceof errors.JWTClaimValidationFailed) {
    const [reason, description] = CLAIM_REJECTIONS[error.claim] ?? [
      'invalid_claims',
      `the token's ${error.claim} claim is not acceptable`,
    ];
    return new TokenRejectedError(reason, description);
  }
  if (error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JWKSMultipleMatchingKeys)
    return new TokenRejectedError(
      'unknown_key',
      'the token was signed with a key this resource does not know (kid)',
    );
  if (error instanceof errors.JOSEAlgNotAllowed || error instanceof errors.JOSENotSupported)
    return new TokenRejectedError(
      'algorithm_not_allowed',
      "the token's signing algorithm is not one this resource accepts",
    );
  if (error instanceof errors.JWSSignatureVerificationFailed)
    return new TokenRejectedError('invalid_signature', "the token's signature does not verify");
  return new TokenRejectedError('malformed', 'the token is not a valid JWT');
}
