import type { HttpAuthorizer } from '../http/authorizer.js';
import type { PrivateKeyJwtKey } from './clientAuth.js';
import { grantAuthorizer } from './grantAuthorizer.js';
import type { OAuthCommonOptions } from './oauth.js';

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
  const subject = options.subjectToken;
  return grantAuthorizer(options, async () => ({
    grant_type: TOKEN_EXCHANGE_GRANT,
    subject_token: typeof subject === 'string' ? subject : await subject(),
    subject_token_type: ACCESS_TOKEN_TYPE,
    requested_token_type: ACCESS_TOKEN_TYPE,
  }));
}
