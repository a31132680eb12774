import { OAuthDiscoveryError, OAuthIssuerMismatchError } from './errors.js';
import { jsonObject, send, type OAuthHttp } from './http.js';

/** What the client uses from authorization-server metadata (RFC 8414 §2, OpenID Discovery). */
export interface AuthorizationServer {
  /** The issuer identifier, checked equal to the one the metadata URL was built from. */
  issuer: string;
  authorizationEndpoint: string;
  tokenEndpoint: string;
  registrationEndpoint?: string;
  scopesSupported?: string[];
  tokenEndpointAuthMethods?: string[];
  codeChallengeMethods?: string[];
  /** RFC 9207: the server promises `iss` on every authorization response. */
  issParameterSupported: boolean;
  /** The server accepts a URL as `client_id` (client ID metadata documents). */
  clientIdMetadataDocumentSupported: boolean;
  /** False when no metadata exists and the 2025-03-26 default endpoints are assumed. */
  fromMetadata: boolean;
}

/**
 * The metadata URLs to try for an issuer, in order: with a path, RFC 8414's path-inserted form,
 * then OpenID's path-inserted and path-appended forms; without one, the two root documents.
 */
export function authorizationServerUrls(issuer: URL): string[] {
  const path = issuer.pathname.replace(/\/+$/, '');
  if (!path) {
    return [
      `${issuer.origin}/.well-known/oauth-authorization-server`,
      `${issuer.origin}/.well-known/openid-configuration`,
    ];
  }
  return [
    `${issuer.origin}/.well-known/oauth-authorization-server${path}`,
    `${issuer.origin}/.well-known/openid-configuration${path}`,
    `${issuer.origin}${path}/.well-known/openid-configuration`,
  ];
}

/**
 * Fetches and checks the metadata of `issuer`. A document whose `issuer` is not exactly the issuer
 * asked (no normalization) is refused. With `legacyDefaults` (a 2025-03-26 server, no protected
 * resource metadata), a missing document means the default `/authorize`, `/token` and `/register`
 * endpoints at the issuer's origin.
 */
export async function discoverAuthorizationServer(
  http: OAuthHttp,
  issuer: string,
  legacyDefaults = false,
): Promise<AuthorizationServer> {
  for (const url of authorizationServerUrls(new URL(issuer))) {
    const answer = await send(http, url, { headers: { accept: 'application/json' } });
    if (answer.status !== 200) continue;
    return readAuthorizationServer(jsonObject(answer, url), issuer, url);
  }
  if (legacyDefaults) return defaultEndpoints(issuer);
  throw new OAuthDiscoveryError(`no authorization server metadata found for ${issuer}`);
}

function readAuthorizationServer(
  document: Record<string, unknown>,
  issuer: string,
  url: string,
): AuthorizationServer {
  if (document.issuer !== issuer) {
    const actual = typeof document.issuer === 'string' ? document.issuer : undefined;
    throw new OAuthIssuerMismatchError(
      `authorization server metadata at ${url} names issuer ${actual ?? '(none)'}, not ${issuer}`,
      issuer,
      actual,
    );
  }
  const authorizationEndpoint = httpUrl(document.authorization_endpoint);
  const tokenEndpoint = httpUrl(document.token_endpoint);
  if (!tokenEndpoint) {
    throw new OAuthDiscoveryError(`authorization server metadata at ${url} has no token_endpoint`);
  }
  const server: AuthorizationServer = {
    issuer,
    authorizationEndpoint: authorizationEndpoint ?? '',
    tokenEndpoint,
    issParameterSupported: document.authorization_response_iss_parameter_supported === true,
    clientIdMetadataDocumentSupported: document.client_id_metadata_document_supported === true,
    fromMetadata: true,
  };
  const registration = httpUrl(document.registration_endpoint);
  if (registration) server.registrationEndpoint = registration;
  const scopes = strings(document.scopes_supported);
  if (scopes) server.scopesSupported = scopes;
  const methods = strings(document.token_endpoint_auth_methods_supported);
  if (methods) server.tokenEndpointAuthMethods = methods;
  const challenges = strings(document.code_challenge_methods_supported);
  if (challenges) server.codeChallengeMethods = challenges;
  return server;
}

function defaultEndpoints(issuer: string): AuthorizationServer {
  const origin = new URL(issuer).origin;
  return {
    issuer,
    authorizationEndpoint: `${origin}/authorize`,
    tokenEndpoint: `${origin}/token`,
    registrationEndpoint: `${origin}/register`,
    issParameterSupported: false,
    clientIdMetadataDocumentSupported: false,
    fromMetadata: false,
  };
}

function httpUrl(value: unknown): string | undefined {
  if (typeof value !== 'string' || !URL.canParse(value)) return undefined;
  const protocol = new URL(value).protocol;
  return protocol === 'https:' || protocol === 'http:' ? value : undefined;
}

function strings(value: unknown): string[] | undefined {
  return Array.isArray(value)
    ? value.filter((entry): entry is string => typeof entry === 'string')
    : undefined;
}
