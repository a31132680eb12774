import { SignJWT, importJWK, importPKCS8, type CryptoKey, type JWK } from 'jose';
import type { AuthorizationServer } from './authorizationServer.js';
import type { OAuthClientInformation } from './tokenStore.js';

/** A private key for `private_key_jwt` (RFC 7523 §2.2): a PKCS#8 PEM, a JWK, or a Web Crypto key. */
export interface PrivateKeyJwtKey {
  /** The key as PKCS#8 PEM text, a private JWK, or a `CryptoKey`. */
  privateKey: string | JWK | CryptoKey;
  /** The JWS algorithm, such as `ES256` or `RS256`. */
  algorithm: string;
  /** Key ID placed in the assertion's header, when the server needs it to pick the key. */
  keyId?: string;
}

/** How long a client assertion is valid. */
const ASSERTION_LIFETIME_SECONDS = 300;
const ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

/**
 * The token endpoint authentication method to use: the one the client registered with, else the
 * first the server supports among those the client can do (with a secret: basic, then post; without:
 * none). RFC 8414 §2: a server that lists none supports `client_secret_basic`.
 */
export function chooseAuthMethod(
  client: OAuthClientInformation,
  server: AuthorizationServer,
  key?: PrivateKeyJwtKey,
): string {
  if (client.tokenEndpointAuthMethod) return client.tokenEndpointAuthMethod;
  const supported = server.tokenEndpointAuthMethods ?? ['client_secret_basic'];
  const candidates = [
    ...(key ? ['private_key_jwt'] : []),
    ...(client.clientSecret ? ['client_secret_basic', 'client_secret_post'] : []),
  ];
  return (
    candidates.find((method) => supported.includes(method)) ??
    (client.clientSecret ? 'client_secret_basic' : 'none')
  );
}

/**
 * Adds the client's authentication to a token request: an `Authorization: Basic` header, the id
 * and secret in the body, a signed assertion, or the bare `client_id` of a public client (when it
 * has one).
 */
export async function authenticateClient(
  method: string,
  client: OAuthClientInformation,
  server: AuthorizationServer,
  body: URLSearchParams,
  headers: Record<string, string>,
  key?: PrivateKeyJwtKey,
): Promise<void> {
  switch (method) {
    case 'client_secret_basic': {
      const pair = `${formEncode(client.clientId)}:${formEncode(client.clientSecret ?? '')}`;
      headers.authorization = `Basic ${btoa(pair)}`;
      return;
    }
    case 'client_secret_post':
      body.set('client_id', client.clientId);
      body.set('client_secret', client.clientSecret ?? '');
      return;
    case 'private_key_jwt':
      if (!key) throw new TypeError('private_key_jwt needs a private key');
      body.set('client_assertion_type', ASSERTION_TYPE);
      body.set('client_assertion', await clientAssertion(client.clientId, server.issuer, key));
      return;
    default:
      // A grant that identifies the client by its assertion alone (RFC 7523 §3.1) names none.
      if (client.clientId) body.set('client_id', client.clientId);
  }
}

/** A signed client assertion: issued by and about the client, for the authorization server (its issuer). */
async function clientAssertion(
  clientId: string,
  audience: string,
  key: PrivateKeyJwtKey,
): Promise<string> {
  const signingKey =
    typeof key.privateKey === 'string'
      ? await importPKCS8(key.privateKey, key.algorithm)
      : 'kty' in key.privateKey
        ? await importJWK(key.privateKey, key.algorithm)
        : key.privateKey;
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg: key.algorithm, ...(key.keyId ? { kid: key.keyId } : {}) })
    .setIssuer(clientId)
    .setSubject(clientId)
    .setAudience(audience)
    .setIssuedAt(now)
    .setExpirationTime(now + ASSERTION_LIFETIME_SECONDS)
    .setJti(crypto.randomUUID())
    .sign(signingKey);
}

/** RFC 6749 §2.3.1: the id and secret are form-encoded before they are joined and Base64-encoded. */
function formEncode(value: string): string {
  return new URLSearchParams({ v: value }).toString().slice(2);
}
