import type { HttpAuthorizer } from '../http/authorizer.js';
import { authorizeWithCode, type RedirectHandler } from './authorizationCode.js';
import type { PrivateKeyJwtKey } from './clientAuth.js';
import type { AuthContext } from './discovery.js';
import { DpopProver, type DpopKeyPair } from './dpop.js';
import { DEFAULT_OAUTH_MAX_BODY_BYTES, DEFAULT_OAUTH_TIMEOUT_MS, type OAuthHttp } from './http.js';
import { isSecureAuthorizationUrl } from './pinnedIssuer.js';
import { resolveClient, type PreRegisteredClient } from './registration.js';
import { requestToken } from './tokenRequest.js';
import { TokenAuthorizer, type TokenSource } from './tokenAuthorizer.js';
import { memoryTokenStore, type OAuthTokens, type TokenStore } from './tokenStore.js';

/** Settings every OAuth authorizer shares: how it reaches servers, where it keeps tokens, its bounds. */
export interface OAuthCommonOptions {
  /** Where tokens and client identities live. Default: {@link memoryTokenStore}. */
  store?: TokenStore;
  /** The fetch used for metadata, registration and token requests. Default: the global fetch. */
  fetch?: typeof fetch;
  /** Deadline of one request to an authorization server, in ms. Default 10,000. */
  timeoutMs?: number;
  /** Largest answer body read from an authorization server. Default 256 KiB. */
  maxBodyBytes?: number;
  /** Step-ups for scopes already asked for and still refused with 403 before giving up. Default 2. */
  maxStepUps?: number;
  /** New tokens refused at once with 401, in a row, before giving up. Default 2. */
  maxReauthorizations?: number;
  /**
   * The authorization server this client is registered with (its issuer URL, https, or http on a
   * loopback host). When given, no other is ever asked: a resource naming another one fails the
   * flow before any request reaches it, so its credentials go to this issuer only. Default: the
   * server the resource names (what a public client registering itself needs).
   */
  issuer?: string;
  /**
   * Ask for DPoP-bound tokens (RFC 9449) and prove possession on every request: `true` with an
   * ES256 key generated for this authorizer, or a key pair of your own. Default: bearer tokens.
   */
  dpop?: boolean | DpopKeyPair;
}

/** Options of {@link oauth}: the authorization code flow for a user-facing client. */
export interface OAuthOptions extends OAuthCommonOptions {
  /** Sends the user to the authorization URL and resolves to the redirect URL (with `code`, `state`). */
  onRedirect: RedirectHandler;
  /** The redirect URI registered for this client, e.g. `http://127.0.0.1:8765/callback`. */
  redirectUri: string;
  /** The name shown on consent screens and sent with dynamic registration. Default `Rondo client`. */
  clientName?: string;
  /** Credentials registered ahead of time with the authorization server. */
  client?: PreRegisteredClient;
  /** This client's metadata document URL, used as `client_id` where servers support CIMD. */
  clientMetadataUrl?: string;
  /** Ask for `offline_access` (a refresh token) where the authorization server lists it. Default true. */
  offlineAccess?: boolean;
  /** A key for `private_key_jwt`, for a confidential client registered with one. */
  privateKey?: PrivateKeyJwtKey;
}

/**
 * An OAuth 2.1 authorizer for the Streamable HTTP transport (the MCP authorization spec): discovery
 * of the resource's and the authorization server's metadata, a client identity (pre-registered, a
 * client ID metadata document, or dynamic registration), the authorization code flow with PKCE and
 * issuer checks, the `resource` parameter, scope selection with step-up, and refresh tokens.
 * Failures reject `challenged` with an {@link OAuthError} subclass.
 */
export function oauth(options: OAuthOptions): HttpAuthorizer {
  const http = oauthHttp(options);
  const dpop = dpopProver(options);
  const proofs = { key: options.privateKey, dpop };
  const store = options.store ?? memoryTokenStore();
  const registration = {
    clientName: options.clientName ?? 'Rondo client',
    redirectUri: options.redirectUri,
    ...(options.client ? { client: options.client } : {}),
    ...(options.clientMetadataUrl ? { clientMetadataUrl: options.clientMetadataUrl } : {}),
  };
  const source: TokenSource = {
    offlineAccess: options.offlineAccess ?? true,
    async obtain(context: AuthContext, scope: string | undefined): Promise<OAuthTokens> {
      const client = await resolveClient(http, context.server, store, registration);
      return authorizeWithCode(http, context.server, client, {
        resource: context.resource,
        redirectUri: options.redirectUri,
        onRedirect: options.onRedirect,
        ...(scope ? { scope } : {}),
        proofs,
      });
    },
    async renew(context: AuthContext, tokens: OAuthTokens): Promise<OAuthTokens | undefined> {
      if (!tokens.refreshToken) return undefined;
      const client = await resolveClient(http, context.server, store, registration);
      const grant = {
        params: { grant_type: 'refresh_token', refresh_token: tokens.refreshToken },
        resource: context.resource,
      };
      const renewed = await requestToken(http, context.server, client, grant, proofs);
      // A server that does not rotate refresh tokens keeps the old one valid (RFC 6749 §6).
      renewed.refreshToken ??= tokens.refreshToken;
      if (tokens.requestedScope) renewed.requestedScope = tokens.requestedScope;
      return renewed;
    },
  };
  return new TokenAuthorizer({ http, store, source, dpop, ...bounds(options) });
}

/** The bounded HTTP settings from the options. */
export function oauthHttp(options: OAuthCommonOptions): OAuthHttp {
  return {
    fetch: options.fetch ?? ((input, init) => fetch(input, init)),
    timeoutMs: options.timeoutMs ?? DEFAULT_OAUTH_TIMEOUT_MS,
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_OAUTH_MAX_BODY_BYTES,
  };
}

/** The DPoP prover the options ask for, if any. */
export function dpopProver(options: OAuthCommonOptions): DpopProver | undefined {
  if (!options.dpop) return undefined;
  return new DpopProver(options.dpop === true ? undefined : options.dpop);
}

/** The retry bounds from the options. */
export function bounds(options: OAuthCommonOptions): {
  maxStepUps: number;
  maxReauthorizations: number;
  issuer?: string;
} {
  if (options.issuer !== undefined && !isSecureAuthorizationUrl(options.issuer)) {
    throw new TypeError(
      `issuer must be an https URL (http only on a loopback host), not ${options.issuer}`,
    );
  }
  return {
    maxStepUps: options.maxStepUps ?? 2,
    maxReauthorizations: options.maxReauthorizations ?? 2,
    ...(options.issuer !== undefined ? { issuer: options.issuer } : {}),
  };
}
