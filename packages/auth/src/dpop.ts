import { ConfigurationError, TokenRejectedError, type DpopProofVerifier } from '@rondo/core';
import {
  base64url,
  calculateJwkThumbprint,
  decodeProtectedHeader,
  importJWK,
  jwtVerify,
  type JWK,
} from 'jose';
import { ASYMMETRIC_ALGORITHMS } from './jwks.js';
import { ReplayCache } from './replayCache.js';

/** Settings of {@link dpopProofVerifier}. */
export interface DpopProofVerifierOptions {
  /** The proof signing algorithms accepted. Default: the asymmetric ones (ES256, RS256, EdDSA...). */
  algorithms?: readonly string[];
  /** How old a proof's `iat` may be, in seconds (the extension's window). Default 300. */
  maxAgeSeconds?: number;
  /** How far in the future a proof's `iat` may be, in seconds (clock skew). Default 60. */
  clockSkewSeconds?: number;
  /** Proof identifiers remembered to refuse a replayed proof; 0 turns the check off. Default 100,000. */
  replayCacheEntries?: number;
}

/** The proof window, clock skew and replay cache of {@link dpopProofVerifier}, by default. */
export const DPOP_PROOF_DEFAULTS = {
  maxAgeSeconds: 300,
  clockSkewSeconds: 60,
  replayCacheEntries: 100_000,
} as const;

/** Longest proof read: a JWT with an RSA key in its header is well under it. */
const MAX_PROOF_LENGTH = 8192;

/**
 * A DPoP proof checker for the resource server (RFC 9449 §4.3 and §7, the MCP DPoP extension; no
 * body digest, which the extension dropped): one compact JWT of type `dpop+jwt`, signed with an
 * accepted asymmetric algorithm by the public key in its header; `htm` the request's method, `htu`
 * its URL without query and fragment, `iat` within the window, `ath` the token's hash, a `jti`
 * not seen before. Resolves to the key's thumbprint, which the token's `cnf.jkt` must equal.
 */
export function dpopProofVerifier(options: DpopProofVerifierOptions = {}): DpopProofVerifier {
  const algorithms = [...(options.algorithms ?? ASYMMETRIC_ALGORITHMS)];
  for (const alg of algorithms) {
    if (!ASYMMETRIC_ALGORITHMS.includes(alg))
      throw new ConfigurationError(`dpopProofVerifier: ${alg} is not an asymmetric algorithm`);
  }
  const maxAge = options.maxAgeSeconds ?? DPOP_PROOF_DEFAULTS.maxAgeSeconds;
  const skew = options.clockSkewSeconds ?? DPOP_PROOF_DEFAULTS.clockSkewSeconds;
  const replayEntries = options.replayCacheEntries ?? DPOP_PROOF_DEFAULTS.replayCacheEntries;
  const replays = new ReplayCache(replayEntries);
  const checkReplays = replayEntries > 0;
  return {
    algorithms,
    async verify(proof, request) {
      const { jwk, claims } = await verifiedProof(proof, algorithms);
      if (claims.htm !== request.method) throw refused('htm is not the request method');
      const htu = claims.htu;
      if (typeof htu !== 'string' || !request.urls.some((url) => sameUrl(htu, url)))
        throw refused('htu is not the request URL');
      const now = Date.now() / 1000;
      if (typeof claims.iat !== 'number' || claims.iat < now - maxAge)
        throw refused('iat is missing or too old');
      if (claims.iat > now + skew) throw refused('iat is in the future');
      if (claims.ath !== (await tokenHash(request.accessToken)))
        throw refused('ath is not the hash of the access token');
      if (typeof claims.jti !== 'string' || claims.jti === '' || claims.jti.length > 256)
        throw refused('jti is missing');
      const jkt = await calculateJwkThumbprint(jwk, 'sha256');
      const until = (claims.iat + maxAge + skew) * 1000;
      if (checkReplays && !replays.firstUse(`${jkt} ${claims.jti}`, until))
        throw refused('the proof was used before (jti)');
      return { jkt };
    },
  };
}

/** The proof's public key and claims once its form and signature check out. */
async function verifiedProof(
  proof: string,
  algorithms: readonly string[],
): Promise<{ jwk: JWK; claims: Record<string, unknown> }> {
  if (proof.length > MAX_PROOF_LENGTH) throw refused('the proof is too long');
  let header: ReturnType<typeof decodeProtectedHeader>;
  try {
    header = decodeProtectedHeader(proof);
  } catch {
    throw refused('the proof is not a signed JWT');
  }
  if (header.typ !== 'dpop+jwt') throw refused('the proof typ is not dpop+jwt');
  if (typeof header.alg !== 'string' || !algorithms.includes(header.alg))
    throw refused(`the proof alg is not one of ${algorithms.join(' ')}`);
  const jwk = header.jwk;
  if (!jwk || typeof jwk !== 'object') throw refused('the proof carries no jwk');
  if ('d' in jwk || 'k' in jwk) throw refused('the proof jwk is not a public key');
  try {
    const key = await importJWK(jwk, header.alg);
    const { payload } = await jwtVerify(proof, key, { algorithms: [header.alg], typ: 'dpop+jwt' });
    return { jwk, claims: payload };
  } catch {
    throw refused('the proof signature does not verify with its jwk');
  }
}

function refused(why: string): TokenRejectedError {
  return new TokenRejectedError('invalid_dpop_proof', why);
}

/** Same URL for `htu` (RFC 9449 §4.3): scheme and host case-insensitive, no query or fragment. */
function sameUrl(htu: string, url: string): boolean {
  const normal = (text: string): string | undefined => {
    try {
      const parsed = new URL(text);
      const scheme = { 'ws:': 'http:', 'wss:': 'https:' }[parsed.protocol] ?? parsed.protocol;
      return `${scheme}//${parsed.host}${parsed.pathname.replace(/\/+$/, '')}`;
    } catch {
      return undefined;
    }
  };
  const wanted = normal(url);
  return wanted !== undefined && normal(htu) === wanted;
}

async function tokenHash(token: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token));
  return base64url.encode(new Uint8Array(digest));
}
