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
  /**
   * The key the token is bound to (`cnf.jkt`, RFC 9449 §6): such a token is only accepted with the
   * `DPoP` scheme and a proof signed by that key, never as a bearer token.
   */
  confirmation?: { jkt: string };
}

/** The request a DPoP proof must be for (RFC 9449 §4.3). */
export interface ProofRequest {
  /** The HTTP method (`POST`, `GET`, `GET` for a WebSocket upgrade). */
  method: string;
  /** The URLs the request may have been sent to (`htu` must be one of them). */
  urls: readonly string[];
  /** The access token presented with the proof (`ath` is its hash). */
  accessToken: string;
}

/**
 * Checks DPoP proofs for a resource server. `verify` resolves to the thumbprint of the proof's key,
 * or throws a `TokenRejectedError` with reason `invalid_dpop_proof` saying what is wrong.
 */
export interface DpopProofVerifier {
  /** The signing algorithms accepted, for the `algs` of a `DPoP` challenge and the metadata. */
  readonly algorithms: readonly string[];
  verify(proof: string, request: ProofRequest): Promise<{ jkt: string }>;
}

/**
 * Checks a bearer token (signature, issuer, revocation). Undefined or a throw means invalid; a
 * thrown `TokenRejectedError` also says why, and its description reaches the client.
 */
export type TokenVerifier = (
  token: string,
) => VerifiedToken | undefined | Promise<VerifiedToken | undefined>;
