import type { AuthorizationServer } from './authorizationServer.js';
import {
  OAuthAuthorizationError,
  OAuthDiscoveryError,
  OAuthIssuerMismatchError,
} from './errors.js';
import type { OAuthHttp } from './http.js';
import { createPkce, randomState } from './pkce.js';
import { requestToken, type TokenProofs } from './tokenRequest.js';
import type { OAuthClientInformation, OAuthTokens } from './tokenStore.js';

/**
 * Takes the user (or a headless harness) through the authorization URL and resolves to the URL the
 * authorization server redirected back to, with its `code` and `state` (and `iss`) parameters.
 */
export type RedirectHandler = (authorizationUrl: URL) => Promise<string | URL>;

/** One authorization code flow: where to, for what, and how the redirect comes back. */
export interface CodeFlow {
  resource: string;
  scope?: string;
  redirectUri: string;
  onRedirect: RedirectHandler;
  /** The client's key and DPoP prover for the token request. */
  proofs?: TokenProofs;
}

/**
 * The authorization code grant with PKCE S256: builds the authorization URL, lets the redirect
 * handler follow it, checks `state` and the issuer of the response (RFC 9207, exact string
 * comparison), and trades the code for tokens. No code reaches the token endpoint unless every
 * check passed.
 */
export async function authorizeWithCode(
  http: OAuthHttp,
  server: AuthorizationServer,
  client: OAuthClientInformation,
  flow: CodeFlow,
): Promise<OAuthTokens> {
  if (server.fromMetadata && !server.codeChallengeMethods?.includes('S256')) {
    throw new OAuthDiscoveryError(
      `authorization server ${server.issuer} does not advertise PKCE S256`,
    );
  }
  if (!server.authorizationEndpoint) {
    throw new OAuthDiscoveryError(
      `authorization server ${server.issuer} has no authorization_endpoint`,
    );
  }
  const pkce = await createPkce();
  const state = randomState();
  const url = new URL(server.authorizationEndpoint);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', client.clientId);
  url.searchParams.set('redirect_uri', flow.redirectUri);
  url.searchParams.set('code_challenge', pkce.challenge);
  url.searchParams.set('code_challenge_method', 'S256');
  url.searchParams.set('state', state);
  url.searchParams.set('resource', flow.resource);
  if (flow.scope) url.searchParams.set('scope', flow.scope);
  const redirected = new URL(await flow.onRedirect(url));
  const code = checkRedirect(redirected.searchParams, state, server);
  const grant = {
    params: {
      grant_type: 'authorization_code',
      code,
      code_verifier: pkce.verifier,
      redirect_uri: flow.redirectUri,
    },
    resource: flow.resource,
    ...(flow.scope ? { scope: flow.scope } : {}),
  };
  return requestToken(http, server, client, grant, flow.proofs);
}

/** Checks an authorization response and returns its code. */
export function checkRedirect(
  params: URLSearchParams,
  state: string,
  server: AuthorizationServer,
): string {
  if (params.get('state') !== state) {
    throw new OAuthAuthorizationError(
      'the authorization response does not carry the state that was sent',
    );
  }
  const iss = params.get('iss');
  if (iss !== null && iss !== server.issuer) {
    throw new OAuthIssuerMismatchError(
      `the authorization response comes from issuer ${iss}, not ${server.issuer}`,
      server.issuer,
      iss,
    );
  }
  if (iss === null && server.issParameterSupported) {
    throw new OAuthIssuerMismatchError(
      `the authorization response has no iss although ${server.issuer} promises one`,
      server.issuer,
      undefined,
    );
  }
  const error = params.get('error');
  if (error !== null) {
    throw new OAuthAuthorizationError(
      `the authorization server answered ${error.slice(0, 64)}`,
      error.slice(0, 64),
    );
  }
  const code = params.get('code');
  if (!code) throw new OAuthAuthorizationError('the authorization response carries no code');
  return code;
}
