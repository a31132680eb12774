export { oauth, type OAuthOptions, type OAuthCommonOptions } from './oauth.js';
export { clientCredentials, type ClientCredentialsOptions } from './clientCredentials.js';
export { tokenExchange, type TokenExchangeOptions } from './tokenExchange.js';
export { isSecureAuthorizationUrl } from './pinnedIssuer.js';
export {
  workloadIdentity,
  type WorkloadIdentityOptions,
  type AssertionSource,
} from './workloadIdentity.js';
export {
  enterpriseManaged,
  type EnterpriseManagedOptions,
  type IdentityProvider,
} from './enterpriseManaged.js';
export type { DpopKeyPair } from './dpop.js';
export type { RedirectHandler } from './authorizationCode.js';
export type { PrivateKeyJwtKey } from './clientAuth.js';
export type { PreRegisteredClient } from './registration.js';
export {
  memoryTokenStore,
  type TokenStore,
  type OAuthTokens,
  type OAuthClientInformation,
} from './tokenStore.js';
export {
  OAuthError,
  OAuthResponseError,
  OAuthDiscoveryError,
  OAuthResourceMismatchError,
  OAuthIssuerMismatchError,
  OAuthRegistrationError,
  OAuthAuthorizationError,
  OAuthTokenError,
} from './errors.js';
