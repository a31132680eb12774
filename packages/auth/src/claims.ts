import { TokenRejectedError, type VerifiedToken } from '@rondo/core';

type Claims = Record<string, unknown>;

/**
 * The principal's facts from a token's claims (a JWT payload or an introspection answer):
 * the subject (`sub`, else the user name or the client), the scopes (`scope`, space-separated,
 * or `scp`, an array or a string), the client (`client_id`, `azp`, Entra's `appid`), the audience
 * and the expiry. `skewSeconds` is added to `exp`, so the expiry reported is when this resource
 * stops accepting the token. A token bound to a key (`cnf.jkt`) says so in `confirmation`.
 */
export function verifiedFromClaims(claims: Claims, skewSeconds: number): VerifiedToken {
  const clientId = firstString(claims, ['client_id', 'azp', 'appid']);
  const subject = firstString(claims, ['sub', 'username']) ?? clientId;
  if (subject === undefined)
    throw new TokenRejectedError('invalid_claims', 'the token names no subject (sub)');
  const token: VerifiedToken = {
    subject,
    scopes: scopesOf(claims),
    audience: audienceOf(claims),
    claims: claims as NonNullable<VerifiedToken['claims']>,
  };
  if (typeof claims.exp === 'number') token.expiresAt = claims.exp + skewSeconds;
  if (clientId !== undefined) token.clientId = clientId;
  const jkt = boundKey(claims);
  if (jkt !== undefined) token.confirmation = { jkt };
  return token;
}

/**
 * The key thumbprint a token is bound to (`cnf.jkt`, RFC 9449 §6.1 for JWTs, §6.2 for
 * introspection answers): the resource then takes it only as `DPoP`, never as `Bearer`.
 */
function boundKey(claims: Claims): string | undefined {
  const cnf = claims.cnf;
  if (typeof cnf !== 'object' || cnf === null || Array.isArray(cnf)) return undefined;
  const jkt = (cnf as Claims).jkt;
  return typeof jkt === 'string' && jkt !== '' ? jkt : undefined;
}

/** The scopes a token grants: `scope` (RFC 8693, RFC 7662) or `scp` (Okta, Entra). */
export function scopesOf(claims: Claims): string[] {
  const words = (value: string): string[] => value.split(' ').filter((word) => word !== '');
  const scopes = new Set<string>();
  if (typeof claims.scope === 'string') for (const scope of words(claims.scope)) scopes.add(scope);
  if (typeof claims.scp === 'string') for (const scope of words(claims.scp)) scopes.add(scope);
  if (Array.isArray(claims.scp))
    for (const scope of claims.scp) if (typeof scope === 'string') scopes.add(scope);
  return [...scopes];
}

/** The audiences a token names (`aud`, a string or an array of strings). */
export function audienceOf(claims: Claims): string[] {
  if (typeof claims.aud === 'string') return [claims.aud];
  if (Array.isArray(claims.aud))
    return claims.aud.filter((entry): entry is string => typeof entry === 'string');
  return [];
}

function firstString(claims: Claims, names: readonly string[]): string | undefined {
  for (const name of names) {
    const value = claims[name];
    if (typeof value === 'string' && value !== '') return value;
  }
  return undefined;
}
