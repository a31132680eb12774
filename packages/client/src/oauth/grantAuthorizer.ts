import type { HttpAuthorizer } from '../http/authorizer.js';
import type { PrivateKeyJwtKey } from './clientAuth.js';
import type { AuthContext } from './discovery.js';
import type { OAuthHttp } from './http.js';
import { bounds, dpopProver, oauthHttp, type OAuthCommonOptions } from './oauth.js';
import { requestToken } from './tokenRequest.js';
import { TokenAuthorizer } from './tokenAuthorizer.js';
import { memoryTokenStore, type OAuthClientInformation } from './tokenStore.js';

/** What every grant without a user at the browser takes: this client's registration and scope. */
export interface GrantClientOptions extends OAuthCommonOptions {
  clientId: string;
  clientSecret?: string;
  privateKey?: PrivateKeyJwtKey;
  /** The scope to ask for; default: what the resource challenges or lists, like `oauth()`. */
  scope?: string;
}

/**
 * The grant-specific parameters of one token request (`grant_type` and what it needs), for the
 * resource of `context` and the scope `scope` chosen.
 */
export type GrantParams = (
  http: OAuthHttp,
  context: AuthContext,
  scope: string | undefined,
) => Promise<Record<string, string>>;

/**
 * An authorizer that obtains its tokens with one grant and no user (client credentials, token
 * exchange, enterprise-managed): the same discovery as `oauth()`, then a token request with
 * `params`, this client's authentication, the resource and the scope; an expired token is replaced
 * the same way.
 */
export function grantAuthorizer(options: GrantClientOptions, params: GrantParams): HttpAuthorizer {
  const http = oauthHttp(options);
  const dpop = dpopProver(options);
  const store = options.store ?? memoryTokenStore();
  const client: OAuthClientInformation = { clientId: options.clientId };
  if (options.clientSecret) client.clientSecret = options.clientSecret;
  const obtain = async (context: AuthContext, scope: string | undefined) => {
    const chosen = options.scope ?? scope;
    const grant = {
      params: await params(http, context, chosen),
      resource: context.resource,
      ...(chosen ? { scope: chosen } : {}),
    };
    return requestToken(http, context.server, client, grant, { key: options.privateKey, dpop });
  };
  const source = {
    offlineAccess: false,
    obtain,
    renew: (context: AuthContext) => obtain(context, options.scope),
  };
  return new TokenAuthorizer({ http, store, source, dpop, ...bounds(options) });
}
