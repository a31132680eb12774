export type { HttpAuthorizer } from './http/authorizer.js';
export {
  oauth,
  clientCredentials,
  memoryTokenStore,
  OAuthError,
  OAuthResponseError,
  OAuthDiscoveryError,
  OAuthResourceMismatchError,
  OAuthIssuerMismatchError,
  OAuthRegistrationError,
  OAuthAuthorizationError,
  OAuthTokenError,
} from './oauth/index.js';
export type {
  OAuthOptions,
  OAuthCommonOptions,
  ClientCredentialsOptions,
  RedirectHandler,
  PrivateKeyJwtKey,
  PreRegisteredClient,
  TokenStore,
  OAuthTokens,
  OAuthClientInformation,
} from './oauth/index.js';
