import type { Principal } from './contracts/definitions.js';

// Kept beside the principal, never on it: a principal is logged, audited and compared, and the
// token it was verified from must reach nothing but a token exchange (RFC 8693) acting for it.
const presented = new WeakMap<Principal, string>();

/** Records `token` as the access token `principal` was verified from (by `verifyBearer`). */
export function rememberPresentedToken(principal: Principal, token: string): void {
  presented.set(principal, token);
}

/**
 * The access token the request's principal was verified from, for a service that exchanges it
 * (OAuth 2.0 Token Exchange, RFC 8693) for a token of its own upstream acting for the same
 * subject; `undefined` for an anonymous request or a principal no token verified. The token is
 * not a member of the principal (so logging, auditing or serialising a principal never shows
 * it); never send it anywhere but the authorization server that exchanges it.
 */
export function presentedToken(principal: Principal | undefined): string | undefined {
  return principal === undefined ? undefined : presented.get(principal);
}
