import type { HttpAuthorizer } from '../http/authorizer.js';
import type { AuthContext } from './discovery.js';
import { bounds, dpopProver, oauthHttp, type OAuthCommonOptions } from './oauth.js';
import { requestToken } from './tokenRequest.js';
import { TokenAuthorizer } from './tokenAuthorizer.js';
import { memoryTokenStore, type OAuthClientInformation } from './tokenStore.js';

/** The JWT-bearer grant type (RFC 7523 §2.1). */
export const JWT_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

/**
 * Where a platform token comes from: the token itself, or a function asked for a fresh one before
 * every grant (a rotated projected token, a metadata endpoint). `fileAssertion` of
 * `@rondo/client/node` reads one from a file.
 */
export type AssertionSource = string | (() => string | Promise<string>);

/** Options of {@link workloadIdentity}: a workload that proves who it is with its platform's token. */
export interface WorkloadIdentityOptions extends OAuthCommonOptions {
  /** The platform-issued JWT (Kubernetes, a cloud's workload identity, a CI's OIDC token). */
  assertion: AssertionSource;
  /** The client id at the authorization server, sent when the server knows workloads by one. */
  clientId?: string;
  /** A secret, for a server that also authenticates the client (`client_secret_basic`). */
  clientSecret?: string;
  /** The scope to ask for; default: what the resource challenges or lists, like `oauth()`. */
  scope?: string;
}

/**
 * An authorizer for workload identity federation (SEP-1933): the same discovery as `oauth()`, then
 * the JWT-bearer grant (RFC 7523) with the platform's token as the assertion. A refused grant
 * rejects with the server's error (`invalid_grant`, `invalid_scope`, `unauthorized_client`): it is
 * not retried and no other grant is tried. An expired access token is replaced by a new grant with
 * a fresh assertion.
 */
export function workloadIdentity(options: WorkloadIdentityOptions): HttpAuthorizer {
  const http = oauthHttp(options);
  const dpop = dpopProver(options);
  const store = options.store ?? memoryTokenStore();
  const client: OAuthClientInformation = { clientId: options.clientId ?? '' };
  if (options.clientSecret) client.clientSecret = options.clientSecret;
  const obtain = async (context: AuthContext, scope: string | undefined) => {
    const chosen = options.scope ?? scope;
    const assertion = await readAssertion(options.assertion);
    const grant = {
      params: { grant_type: JWT_BEARER_GRANT, assertion },
      resource: context.resource,
      ...(chosen ? { scope: chosen } : {}),
    };
    return requestToken(http, context.server, client, grant, { dpop });
  };
  const source = {
    offlineAccess: false,
    obtain,
    renew: (context: AuthContext) => obtain(context, options.scope),
  };
  return new TokenAuthorizer({ http, store, source, dpop, ...bounds(options) });
}

/** The assertion of a source, checked to look like a JWT before it leaves the process. */
export async function readAssertion(source: AssertionSource): Promise<string> {
  const assertion = (typeof source === 'string' ? source : await source()).trim();
  if (!/^[\w-]+\.[\w-]+\.[\w-]*$/.test(assertion)) {
    throw new TypeError('the assertion is not a compact JWT');
  }
  return assertion;
}
