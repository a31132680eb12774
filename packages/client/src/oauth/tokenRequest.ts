import type { AuthorizationServer } from './authorizationServer.js';
import { authenticateClient, chooseAuthMethod, type PrivateKeyJwtKey } from './clientAuth.js';
import { OAuthTokenError } from './errors.js';
import { jsonObject, send, type OAuthHttp } from './http.js';
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
  key?: PrivateKeyJwtKey,
): Promise<OAuthTokens> {
  const body = new URLSearchParams(grant.params);
  body.set('resource', grant.resource);
  if (grant.scope) body.set('scope', grant.scope);
  const headers: Record<string, string> = {
    'content-type': 'application/x-www-form-urlencoded',
    accept: 'application/json',
  };
  const method = chooseAuthMethod(client, server, key);
  await authenticateClient(method, client, server, body, headers, key);
  const url = server.tokenEndpoint;
  const answer = await send(http, url, { method: 'POST', headers, body: body.toString() });
  const grantType = grant.params.grant_type ?? 'unknown';
  if (answer.status !== 200) {
    const code = errorCode(answer.text);
    throw new OAuthTokenError(
      `token endpoint ${url} refused the ${grantType} grant with ${answer.status} ${code}`,
      code,
      answer.status,
    );
  }
  const document = jsonObject(answer, url);
  const { access_token: accessToken, token_type: tokenType } = document;
  if (typeof accessToken !== 'string' || accessToken === '' || typeof tokenType !== 'string') {
    throw new OAuthTokenError(
      `token endpoint ${url} answered without an access token`,
      'invalid_response',
      answer.status,
    );
  }
  const tokens: OAuthTokens = { accessToken, tokenType, issuer: server.issuer };
  if (typeof document.refresh_token === 'string') tokens.refreshToken = document.refresh_token;
  if (typeof document.expires_in === 'number' && document.expires_in > 0) {
    tokens.expiresAt = Date.now() + document.expires_in * 1000;
  }
  if (grant.scope) tokens.requestedScope = grant.scope;
  if (typeof document.scope === 'string') tokens.grantedScope = document.scope;
  return tokens;
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
