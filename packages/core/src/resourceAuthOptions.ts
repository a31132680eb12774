// The resource server's settings, below both the bearer check (bearerAuth.ts) and the DPoP one
// (dpopAuth.ts), which read them.
import type { DpopProofVerifier, VerifiedToken } from './tokens.js';

/**
 * DPoP-bound access tokens (RFC 9449, the MCP DPoP extension): `required` accepts only tokens
 * bound to a key, presented with the `DPoP` scheme and a proof; `allowed` takes those and bearer
 * tokens. Either way a bound token presented as `Bearer` is refused.
 */
export interface DpopResourceOptions {
  mode: 'required' | 'allowed';
  /** Checks the proofs (`dpopProofVerifier` of `@rondo/auth`). */
  proofs: DpopProofVerifier;
}

/** OAuth 2.1 resource-server settings (the MCP authorization spec; RFC 9728 metadata). */
export interface OAuthResourceOptions {
  /** This resource's identifier: the MCP endpoint's canonical URL, e.g. `https://mcp.example.com/mcp`. */
  resource: string;
  /** Issuer URLs of the authorization servers that mint tokens for this resource. */
  authorizationServers: readonly string[];
  /**
   * Checks a bearer token (signature, issuer, revocation); undefined or a throw means invalid. A
   * thrown `TokenRejectedError` puts its description into the 401's `error_description`; its
   * reason `verifier_unavailable` answers 503 instead (the token was not judged). The verifiers of
   * `@rondo/auth` are ready ones.
   */
  verifyToken(token: string): VerifiedToken | undefined | Promise<VerifiedToken | undefined>;
  /** DPoP-bound tokens; default off (bearer tokens only, bound ones refused all the same). */
  dpop?: DpopResourceOptions;
  /** Scopes every MCP request needs (403 `insufficient_scope` without them). */
  requiredScopes?: readonly string[];
  /** Scopes advertised in the metadata. Default: the required scopes. */
  scopesSupported?: readonly string[];
  /** A human-readable name for the metadata document. */
  resourceName?: string;
}

/** What a request carries besides its token, for checking a DPoP proof (RFC 9449 §4.3). */
export interface RequestProofContext {
  method: string;
  /** The URLs the request may have been addressed to; the resource is always one. */
  urls: readonly string[];
  /** The `DPoP` header(s), as received. */
  dpop: string | readonly string[] | undefined;
}
