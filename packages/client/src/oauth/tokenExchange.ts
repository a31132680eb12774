import type { HttpAuthorizer } from '../http/authorizer.js';
import type { PrivateKeyJwtKey } from './clientAuth.js';
import type { AuthContext } from './discovery.js';
import { bounds, dpopProver, oauthHttp, type OAuthCommonOptions } from './oauth.js';
import { requestToken } from './tokenRequest.js';
import { TokenAuthorizer } from './tokenAuthorizer.js';
import { memoryTokenStore, type OAuthClientInformation } from './tokenStore.js';

const TOKEN_EXCHANGE_GRANT = 'urn:ietf:params:oauth:grant-type:token-exchange';
const ACCESS_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:access_token';

/**
 * Options of {@link tokenExchange}: a service acting for a caller, trading the caller's token for
 * one of the resource's own.
 */
export interface TokenExchangeOptions extends OAuthCommonOptions {
  /** This service's client id at the authorization server: the actor of the tokens it gets. */
  clientId: string;
  /** A shared secret, sent as `client_secret_basic` (or `client_secret_post` where only that is offered). */
  clientSecret?: string;
  /** A private key, sent as a signed `private_key_jwt` assertion (RFC 7523). */
  privateKey?: PrivateKeyJwtKey;
  /**
   * The access token of the party the new token is for (RFC 8693 `subject_token`): the token a
   * caller presented to this service and this service verified. Read for each exchange.
   */
  subjectToken: string | (() => string | Promise<string>);
  /** The scope to ask for; default: what the resource challenges or lists, like `oauth()`. */
  scope?: string;
}

/**
 * An authorizer for OAuth 2.0 Token Exchange (RFC 8693): the same discovery as `oauth()`, then the
 * subject's access token is exchanged, with this client's own authentication, for an access token
 * whose audience is the resource (`resource`, RFC 8707) and whose subject is the subject's; the
 * authorization server records this client as the actor. The subject's token itself never reaches
 * the resource, and a refused exchange is an `OAuthTokenError` (`invalid_grant`, say): nothing is
 * sent with other credentials instead. The token is kept (in `store`) until it expires, then
 * exchanged again; use one authorizer per subject.
 */
export function tokenExchange(options: TokenExchangeOptions): HttpAuthorizer {
  if (!options.clientSecret && !options.privateKey) {
    throw new TypeError('tokenExchange needs a clientSecret or a privateKey');
  }
  const http = oauthHttp(options);
  const dpop = dpopProver(options);
  const store = options.store ?? memoryTokenStore();
  const client: OAuthClientInformation = { clientId: options.clientId };
  if (options.clientSecret) client.clientSecret = options.clientSecret;
  const subject = options.subjectToken;
  const obtain = async (context: AuthContext, scope: string | undefined) => {
    const chosen = options.scope ?? scope;
    const grant = {
      params: {
        grant_type: TOKEN_EXCHANGE_GRANT,
        subject_token: typeof subject === 'string' ? subject : await subject(),
        subject_token_type: ACCESS_TOKEN_TYPE,
        requested_token_type: ACCESS_TOKEN_TYPE,
      },
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
