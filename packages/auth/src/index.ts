export { ASYMMETRIC_ALGORITHMS, jwksVerifier, type JwksVerifierOptions } from './jwks.js';
export {
  MIN_HMAC_SECRET_BYTES,
  hmacVerifier,
  staticTokenVerifier,
  type HmacVerifierOptions,
  type StaticTokenGrant,
  type StaticTokenVerifierOptions,
} from './hmac.js';
export {
  INTROSPECTION_PACING_DEFAULTS,
  introspectionVerifier,
  type IntrospectionVerifierOptions,
} from './introspection.js';
export { scopesOf } from './claims.js';
export { DPOP_PROOF_DEFAULTS, dpopProofVerifier, type DpopProofVerifierOptions } from './dpop.js';
export {
  TokenRejectedError,
  type TokenRejectionReason,
  type TokenVerifier,
  type VerifiedToken,
  type DpopProofVerifier,
} from '@rondo/core';
export {
  AUTH_FLAGS,
  AUTH_FLAGS_HELP,
  authFromFlags,
  readAuthFlags,
  type AuthFlagSettings,
} from './authFlags.js';
