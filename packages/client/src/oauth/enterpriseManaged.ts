import type { HttpAuthorizer } from '../http/authorizer.js';
import { discoverAuthorizationServer, type AuthorizationServer } from './authorizationServer.js';
import type { PrivateKeyJwtKey } from './clientAuth.js';
import type { AuthContext } from './discovery.js';
import { OAuthTokenError } from './errors.js';
import type { OAuthHttp } from './http.js';
import { grantAuthorizer } from './grantAuthorizer.js';
import type { OAuthCommonOptions } from './oauth.js';
import { callTokenEndpoint } from './tokenRequest.js';
import type { OAuthClientInformation } from './tokenStore.js';
import { JWT_BEARER_GRANT, readAssertion, type AssertionSource } from './workloadIdentity.js';

const TOKEN_EXCHANGE_GRANT = 'urn:ietf:params:oauth:grant-type:token-exchange';
const ID_JAG = 'urn:ietf:params:oauth:token-type:id-jag';
const ID_TOKEN = 'urn:ietf:params:oauth:token-type:id_token';

/** The enterprise identity provider the user signed in at, and this client's registration there. */
export interface IdentityProvider {
  /** The IdP's issuer; its metadata names the token endpoint unless `tokenEndpoint` is given. */
  issuer: string;
  tokenEndpoint?: string;
  clientId: string;
  clientSecret?: string;
  /** The user's ID token from the single sign-on, or a function asked for a current one. */
  idToken: AssertionSource;
}

/** Options of {@link enterpriseManaged}: single sign-on decides what the user may reach. */
export interface EnterpriseManagedOptions extends OAuthCommonOptions {
  identityProvider: IdentityProvider;
  /** This client's id at the MCP server's authorization server. */
  clientId: string;
  clientSecret?: string;
  privateKey?: PrivateKeyJwtKey;
  /** The scope to ask for; default: what the resource challenges or lists, like `oauth()`. */
  scope?: string;
}

/**
 * An authorizer for enterprise-managed authorization (SEP-990, the Identity Assertion JWT
 * Authorization Grant): the same discovery as `oauth()`; then the user's ID token is exchanged at
 * the identity provider (RFC 8693) for an ID-JAG naming the MCP server's authorization server and
 * resource, which that server trades for an access token with the JWT-bearer grant (RFC 7523). No
 * browser, no consent screen: the enterprise's policy at its IdP decides.
 */
export function enterpriseManaged(options: EnterpriseManagedOptions): HttpAuthorizer {
  let idp: Promise<AuthorizationServer> | undefined;
  // Kept once found; a failed discovery is tried again with the next grant.
  const idpServer = (http: OAuthHttp) =>
    (idp ??= identityProviderOf(http, options.identityProvider).catch((error: unknown) => {
      idp = undefined;
      throw error;
    }));
  return grantAuthorizer(options, async (http, context, scope) => {
    const server = await idpServer(http);
    const jag = await exchangeForJag(http, server, options.identityProvider, context, scope);
    return { grant_type: JWT_BEARER_GRANT, assertion: jag };
  });
}

/**
 * The token exchange at the IdP (SEP-990 §4): the ID token in, an ID-JAG out, for the
 * authorization server (`audience`, its issuer) and the resource as published.
 */
async function exchangeForJag(
  http: OAuthHttp,
  idp: AuthorizationServer,
  provider: IdentityProvider,
  context: AuthContext,
  scope: string | undefined,
): Promise<string> {
  const client: OAuthClientInformation = { clientId: provider.clientId };
  if (provider.clientSecret) client.clientSecret = provider.clientSecret;
  const params: Record<string, string> = {
    grant_type: TOKEN_EXCHANGE_GRANT,
    requested_token_type: ID_JAG,
    audience: context.server.issuer,
    resource: context.resource,
    subject_token: await readAssertion(provider.idToken),
    subject_token_type: ID_TOKEN,
  };
  if (scope) params.scope = scope;
  const document = await callTokenEndpoint(http, idp, client, params);
  if (document.issued_token_type !== ID_JAG) {
    throw new OAuthTokenError(
      `identity provider ${idp.issuer} issued no ID-JAG (issued_token_type is not ${ID_JAG})`,
      'invalid_response',
      200,
    );
  }
  return document.access_token as string;
}

/** The IdP's token endpoint: as configured, or from its metadata. */
async function identityProviderOf(
  http: OAuthHttp,
  provider: IdentityProvider,
): Promise<AuthorizationServer> {
  if (!provider.tokenEndpoint) return discoverAuthorizationServer(http, provider.issuer);
  return {
    issuer: provider.issuer,
    authorizationEndpoint: '',
    tokenEndpoint: provider.tokenEndpoint,
    issParameterSupported: false,
    clientIdMetadataDocumentSupported: false,
    fromMetadata: false,
  };
}
