export { ASYMMETRIC_ALGORITHMS, jwksVerifier, type JwksVerifierOptions } from './jwks.js';
export {
  MIN_HMAC_SECRET_BYTES,
  hmacVerifier,
  staticTokenVerifier,
  type HmacVerifierOptions,
  type StaticTokenGrant,
  type StaticTokenVerifierOptions,
} from './hmac.js';
export { introspectionVerifier, type IntrospectionVerifierOptions } from './introspection.js';
export { scopesOf } from './claims.js';
export {
  TokenRejectedError,
  type TokenRejectionReason,
  type TokenVerifier,
  type VerifiedToken,
} from '@rondo/core';
export {
  AUTH_FLAGS,
  AUTH_FLAGS_HELP,
  authFromFlags,
  readAuthFlags,
  type AuthFlagSettings,
} from './authFlags.js';
