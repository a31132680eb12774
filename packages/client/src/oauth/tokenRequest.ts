import type { AuthorizationServer } from './authorizationServer.js';
import { authenticateClient, chooseAuthMethod, type PrivateKeyJwtKey } from './clientAuth.js';
import { OAuthTokenError } from './errors.js';
import type { DpopProver } from './dpop.js';
import { jsonObject, send, type OAuthAnswer, type OAuthHttp } from './http.js';
import type { OAuthClientInformation, OAuthTokens } from './tokenStore.js';

/** One grant sent to the token endpoint. */
export interface TokenGrant {
  /** The grant's own parameters: `grant_type` and what it needs (code, verifier, refresh token). */
  params: Record<string, string>;
  /** The resource the token is for (RFC 8707), sent as published. */
  resource: string;
  /** The scopes asked, space-separated, when any. */
  scope?: string;
}

/** What proves the client at the token endpoint besides its identity. */
export interface TokenProofs {
  /** A key for `private_key_jwt` client authentication. */
  key?: PrivateKeyJwtKey | undefined;
  /** Asks for a token bound to this prover's key (RFC 9449 §5): a proof rides on the request. */
  dpop?: DpopProver | undefined;
}

/**
 * Sends a grant to the token endpoint with the client's authentication and reads the tokens.
 * An OAuth error answer becomes an {@link OAuthTokenError} with its code; the message never
 * repeats the body, which could echo a credential.
 */
export async function requestToken(
  http: OAuthHttp,
  server: AuthorizationServer,
  client: OAuthClientInformation,
  grant: TokenGrant,
  proofs: TokenProofs = {},
): Promise<OAuthTokens> {
  const params: Record<string, string> = { ...grant.params, resource: grant.resource };
  if (grant.scope) params.scope = grant.scope;
  const document = await callTokenEndpoint(http, server, client, params, proofs);
  const { access_token: accessToken, token_type: tokenType } = document;
  const tokens: OAuthTokens = {
    accessToken: accessToken as string,
    tokenType: tokenType as string,
    issuer: server.issuer,
  };
  if (typeof document.refresh_token === 'string') tokens.refreshToken = document.refresh_token;
  if (typeof document.expires_in === 'number' && document.expires_in > 0) {
    tokens.expiresAt = Date.now() + document.expires_in * 1000;
  }
  if (grant.scope) tokens.requestedScope = grant.scope;
  if (typeof document.scope === 'string') tokens.grantedScope = document.scope;
  return tokens;
}

/**
 * One token endpoint call (RFC 6749 §3.2) with `params` and the client's authentication: the
 * answer's JSON, checked to carry an access token and its type. With a DPoP prover, a proof rides
 * on the request, and a `use_dpop_nonce` refusal is answered once with the server's nonce (§8).
 */
export async function callTokenEndpoint(
  http: OAuthHttp,
  server: AuthorizationServer,
  client: OAuthClientInformation,
  params: Record<string, string>,
  proofs: TokenProofs = {},
): Promise<Record<string, unknown>> {
  const url = server.tokenEndpoint;
  const grantType = params.grant_type ?? 'unknown';
  for (let attempt = 1; ; attempt += 1) {
    const body = new URLSearchParams(params);
    const headers: Record<string, string> = {
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'application/json',
    };
    const method = chooseAuthMethod(client, server, proofs.key);
    await authenticateClient(method, client, server, body, headers, proofs.key);
    if (proofs.dpop) headers.DPoP = await proofs.dpop.proof('POST', url);
    const answer = await send(http, url, { method: 'POST', headers, body: body.toString() });
    const nonced = proofs.dpop?.rememberNonce(url, answer.headers) ?? false;
    if (answer.status === 200) return tokenDocument(answer, url);
    const code = errorCode(answer.text);
    if (code === 'use_dpop_nonce' && nonced && attempt === 1) continue;
    throw new OAuthTokenError(
      `token endpoint ${url} refused the ${grantType} grant with ${answer.status} ${code}`,
      code,
      answer.status,
    );
  }
}

function tokenDocument(answer: OAuthAnswer, url: string): Record<string, unknown> {
  const document = jsonObject(answer, url);
  const { access_token: accessToken, token_type: tokenType } = document;
  if (typeof accessToken !== 'string' || accessToken === '' || typeof tokenType !== 'string') {
    throw new OAuthTokenError(
      `token endpoint ${url} answered without an access token`,
      'invalid_response',
      answer.status,
    );
  }
  return document;
}

/** The `error` code of an OAuth error body, when it has a well-formed one. */
function errorCode(text: string): string {
  try {
    const parsed = JSON.parse(text) as { error?: unknown };
    if (typeof parsed.error === 'string' && /^[\x20-\x7e]{1,64}$/.test(parsed.error))
      return parsed.error;
  } catch {
    // Not JSON: the status alone says what happened.
  }
  return 'invalid_response';
}
