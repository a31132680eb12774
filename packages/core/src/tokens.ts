import type { JsonObject } from '@rondo/protocol';

/** What a token verifier learned from a valid access token. */
export interface VerifiedToken {
  /** Who the token acts for; becomes the principal's id. */
  subject: string;
  /** The scopes granted. */
  scopes: readonly string[];
  /** The audiences (`aud`) the token was issued for; one must be this resource. */
  audience: string | readonly string[];
  /** Expiry, in seconds since the epoch. */
  expiresAt?: number;
  /** The OAuth client the token was issued to; becomes the principal's `clientId`. */
  clientId?: string;
  /** Claims handed to providers on the principal. */
  claims?: JsonObject;
}

/**
 * Checks a bearer token (signature, issuer, revocation). Undefined or a throw means invalid; a
 * thrown `TokenRejectedError` also says why, and its description reaches the client.
 */
export type TokenVerifier = (
  token: string,
) => VerifiedToken | undefined | Promise<VerifiedToken | undefined>;
