import type { AuthorizationServer } from './authorizationServer.js';
import { OAuthRegistrationError } from './errors.js';
import { jsonObject, send, type OAuthHttp } from './http.js';
import type { OAuthClientInformation, TokenStore } from './tokenStore.js';

/** A client registered ahead of time (MCP authorization, pre-registration). */
export interface PreRegisteredClient extends OAuthClientInformation {
  /** The issuer these credentials belong to; without one they are offered to any authorization server. */
  issuer?: string;
}

/** How this client presents itself when it has to register. */
export interface ClientRegistrationOptions {
  /** Credentials registered ahead of time; used before any other way. */
  client?: PreRegisteredClient;
  /**
   * The HTTPS URL of this client's metadata document: used as `client_id` where the authorization
   * server advertises `client_id_metadata_document_supported`, instead of registering.
   */
  clientMetadataUrl?: string;
  /** Metadata sent with dynamic registration (RFC 7591 §2). */
  clientName: string;
  redirectUri: string;
  /** The grant types registered; the default asks for refresh tokens too. */
  grantTypes?: string[];
}

const PREFERRED_METHODS = ['client_secret_basic', 'client_secret_post', 'none'];

/**
 * The client's identity at `server`: pre-registered credentials, one kept from an earlier
 * registration with this issuer, a client ID metadata document URL, or a new dynamic registration
 * (RFC 7591), kept for next time. Identities are per issuer: none crosses to another server.
 */
export async function resolveClient(
  http: OAuthHttp,
  server: AuthorizationServer,
  store: TokenStore,
  options: ClientRegistrationOptions,
): Promise<OAuthClientInformation> {
  const preRegistered = options.client;
  if (
    preRegistered &&
    (preRegistered.issuer === undefined || preRegistered.issuer === server.issuer)
  ) {
    const { issuer: _issuer, ...client } = preRegistered;
    return client;
  }
  const kept = await store.getClient(server.issuer);
  if (kept) return kept;
  if (options.clientMetadataUrl && server.clientIdMetadataDocumentSupported) {
    return { clientId: options.clientMetadataUrl, tokenEndpointAuthMethod: 'none' };
  }
  if (!server.registrationEndpoint) {
    throw new OAuthRegistrationError(
      `authorization server ${server.issuer} offers no registration and no client is registered for it`,
    );
  }
  const client = await register(http, server.registrationEndpoint, server, options);
  await store.setClient(server.issuer, client);
  return client;
}

async function register(
  http: OAuthHttp,
  url: string,
  server: AuthorizationServer,
  options: ClientRegistrationOptions,
): Promise<OAuthClientInformation> {
  const supported = server.tokenEndpointAuthMethods ?? ['client_secret_basic'];
  const method = PREFERRED_METHODS.find((entry) => supported.includes(entry)) ?? 'none';
  const metadata = {
    client_name: options.clientName,
    redirect_uris: [options.redirectUri],
    grant_types: options.grantTypes ?? ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: method,
    application_type: isLoopback(options.redirectUri) ? 'native' : 'web',
  };
  const answer = await send(http, url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(metadata),
  });
  if (answer.status !== 200 && answer.status !== 201) {
    throw new OAuthRegistrationError(`registration at ${url} failed with ${answer.status}`);
  }
  const document = jsonObject(answer, url);
  if (typeof document.client_id !== 'string' || document.client_id === '') {
    throw new OAuthRegistrationError(`registration at ${url} answered without a client_id`);
  }
  const client: OAuthClientInformation = { clientId: document.client_id };
  if (typeof document.client_secret === 'string') client.clientSecret = document.client_secret;
  if (typeof document.token_endpoint_auth_method === 'string') {
    client.tokenEndpointAuthMethod = document.token_endpoint_auth_method;
  }
  return client;
}

/** Native apps redirect to a loopback address or a private scheme (RFC 8252); web apps to HTTPS. */
function isLoopback(redirectUri: string): boolean {
  const url = new URL(redirectUri);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return true;
  return ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
}
