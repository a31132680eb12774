import { SignJWT, base64url, exportJWK, generateKeyPair, type CryptoKey, type JWK } from 'jose';

/** A key pair the client proves possession of (RFC 9449): its tokens are bound to the public key. */
export interface DpopKeyPair {
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  /** The JWS algorithm of the pair, such as `ES256`. */
  algorithm: string;
}

/** Servers whose last `DPoP-Nonce` is kept (oldest dropped first). */
const MAX_NONCES = 32;
/** Longest nonce kept: a server cannot make every later proof carry more. */
const MAX_NONCE_LENGTH = 512;

/**
 * Signs DPoP proofs (RFC 9449 §4): a fresh `jti` for every request, the request's method and URL
 * (without query and fragment), the access token's hash (`ath`) when one is presented, and the
 * last nonce the server at that origin supplied (§8, §9). One key for the authorizer's lifetime:
 * its tokens, refresh tokens included, are bound to it.
 */
export class DpopProver {
  readonly #key: Promise<{ pair: DpopKeyPair; jwk: JWK }>;
  readonly #nonces = new Map<string, string>();

  /** Uses `key`, or an ES256 pair generated here whose private half cannot be exported. */
  constructor(key?: DpopKeyPair) {
    this.#key = (key ? Promise.resolve(key) : generated()).then(async (pair) => ({
      pair,
      jwk: publicJwk(await exportJWK(pair.publicKey)),
    }));
  }

  /** A proof for one `method` request to `url`, bound to `accessToken` when one is presented. */
  async proof(method: string, url: string | URL, accessToken?: string): Promise<string> {
    const { pair, jwk } = await this.#key;
    const target = new URL(url);
    const htu = `${target.origin}${target.pathname}`;
    const claims: Record<string, string> = { htm: method.toUpperCase(), htu };
    if (accessToken !== undefined) claims.ath = await tokenHash(accessToken);
    const nonce = this.#nonces.get(target.origin);
    if (nonce !== undefined) claims.nonce = nonce;
    return new SignJWT(claims)
      .setProtectedHeader({ typ: 'dpop+jwt', alg: pair.algorithm, jwk })
      .setJti(crypto.randomUUID())
      .setIssuedAt()
      .sign(pair.privateKey);
  }

  /**
   * Keeps the `DPoP-Nonce` a server at `url` sent, for the proofs sent to it from now on. True
   * when the answer carried a usable nonce.
   */
  rememberNonce(url: string | URL, headers: Headers): boolean {
    const nonce = headers.get('dpop-nonce');
    if (!nonce || nonce.length > MAX_NONCE_LENGTH || !/^[\x21-\x7e]+$/.test(nonce)) return false;
    const origin = new URL(url).origin;
    this.#nonces.delete(origin);
    this.#nonces.set(origin, nonce);
    for (const oldest of this.#nonces.keys()) {
      if (this.#nonces.size <= MAX_NONCES) break;
      this.#nonces.delete(oldest);
    }
    return true;
  }
}

async function generated(): Promise<DpopKeyPair> {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  return { privateKey, publicKey, algorithm: 'ES256' };
}

/** The public members of a JWK only: a proof's header never carries private material. */
function publicJwk(jwk: JWK): JWK {
  const { kty, crv, x, y, n, e } = jwk;
  return Object.fromEntries(
    Object.entries({ kty, crv, x, y, n, e }).filter(([, value]) => value !== undefined),
  );
}

/** `ath`: the Base64url SHA-256 of the access token's ASCII bytes (RFC 9449 §4.2). */
async function tokenHash(accessToken: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(accessToken));
  return base64url.encode(new Uint8Array(digest));
}
