import { RondoError } from '@rondo/protocol';
/**
 * What can go wrong while authorizing with OAuth. Every message is built from metadata, URLs and
 * the authorization server's error code, never from a token, a code or a secret, so an error can be
 * logged as it is.
 */
export class OAuthError extends RondoError {
  override readonly code: string = 'client.oauth';
  override readonly name: string = 'OAuthError';
}

/** An authorization server or resource answered badly: a status, a body too large, not JSON, too slow. */
export class OAuthResponseError extends OAuthError {
  override readonly code: string = 'client.oauth-response';
  override readonly name = 'OAuthResponseError';
  constructor(
    message: string,
    /** The URL asked. */
    readonly url: string,
    /** The HTTP status, when there was an answer. */
    readonly status?: number,
  ) {
    super(message);
  }
}

/** No usable protected-resource or authorization-server metadata was found. */
export class OAuthDiscoveryError extends OAuthError {
  override readonly code: string = 'client.oauth-discovery';
  override readonly name = 'OAuthDiscoveryError';
}

/**
 * The protected-resource metadata names another resource than the server asked (RFC 9728 §3.3):
 * following it would hand a token for this server to someone else.
 */
export class OAuthResourceMismatchError extends OAuthError {
  override readonly code: string = 'client.oauth-resource-mismatch';
  override readonly name = 'OAuthResourceMismatchError';
  constructor(
    /** The server URL the client talks to. */
    readonly serverUrl: string,
    /** The `resource` the metadata published. */
    readonly resource: string,
  ) {
    super(`protected resource metadata names ${resource}, not ${serverUrl}`);
  }
}

/**
 * An issuer did not match: the authorization-server metadata's `issuer` differs from the issuer its
 * well-known URL was built from (RFC 8414 §3.3), or the redirect's `iss` differs from the recorded
 * issuer, is missing where the server promised it, or is present where it must be compared (RFC 9207).
 */
export class OAuthIssuerMismatchError extends OAuthError {
  override readonly code: string = 'client.oauth-issuer-mismatch';
  override readonly name = 'OAuthIssuerMismatchError';
  constructor(
    message: string,
    /** The issuer expected. */
    readonly expected: string,
    /** What was found instead, or undefined when it was missing. */
    readonly actual: string | undefined,
  ) {
    super(message);
  }
}

/** The client could not get a client identity: no registration endpoint, no CIMD, nothing pre-registered. */
export class OAuthRegistrationError extends OAuthError {
  override readonly code: string = 'client.oauth-registration';
  override readonly name = 'OAuthRegistrationError';
}

/** The authorization step failed: the redirect carried an error, a wrong `state`, or no code. */
export class OAuthAuthorizationError extends OAuthError {
  override readonly code: string = 'client.oauth-authorization';
  override readonly name = 'OAuthAuthorizationError';
  constructor(
    message: string,
    /** The OAuth `error` from the redirect, when there was one. */
    readonly oauthError?: string,
  ) {
    super(message);
  }
}

/** The token endpoint refused a grant with an OAuth error (RFC 6749 §5.2) or answered without a token. */
export class OAuthTokenError extends OAuthError {
  override readonly code: string = 'client.oauth-token';
  override readonly name = 'OAuthTokenError';
  constructor(
    message: string,
    /** The OAuth `error`, such as `invalid_grant`. */
    readonly oauthError: string,
    /** The HTTP status of the answer. */
    readonly status: number,
  ) {
    super(message);
  }
}
