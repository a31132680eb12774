import type { HttpAuthorizer } from '../http/authorizer.js';
import type { PrivateKeyJwtKey } from './clientAuth.js';
import { grantAuthorizer } from './grantAuthorizer.js';
import type { OAuthCommonOptions } from './oauth.js';

/** Options of {@link clientCredentials}: a machine client with its own credentials, no user. */
export interface ClientCredentialsOptions extends OAuthCommonOptions {
  clientId: string;
  /** A shared secret, sent as `client_secret_basic` (or `client_secret_post` where only that is offered). */
  clientSecret?: string;
  /** A private key, sent as a signed `private_key_jwt` assertion (RFC 7523). */
  privateKey?: PrivateKeyJwtKey;
  /** The scope to ask for; default: what the resource challenges or lists, like `oauth()`. */
  scope?: string;
}

/**
 * An authorizer for the client credentials grant (the MCP OAuth client credentials extension):
 * the same discovery as `oauth()`, then a token for the client itself, authenticated with a secret
 * or a signed JWT assertion. An expired token is simply replaced.
 */
export function clientCredentials(options: ClientCredentialsOptions): HttpAuthorizer {
  if (!options.clientSecret && !options.privateKey) {
    throw new TypeError('clientCredentials needs a clientSecret or a privateKey');
  }
  return grantAuthorizer(options, async () => ({ grant_type: 'client_credentials' }));
}
