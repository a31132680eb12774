import { randomUUID } from 'node:crypto';
import { SignJWT, calculateJwkThumbprint, exportJWK, generateKeyPair } from 'jose';
import { describe, expect, it } from 'vitest';
import { ConfigurationError, TokenRejectedError } from '@rondo/core';
import { dpopProofVerifier } from '@rondo/auth';
import { ReplayCache } from '../src/replayCache.js';

// Issue 43: the proof checks of dpopProofVerifier on their own (test/auth/dpop.test.ts runs them
// behind real servers): the URL rules, what it refuses to be configured with, the replay bound.

async function signed(claims: Record<string, unknown>, header: Record<string, unknown> = {}) {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  const jwk = await exportJWK(publicKey);
  const proof = await new SignJWT({
    jti: randomUUID(),
    iat: Math.floor(Date.now() / 1000),
    ath: 'fUHyO2r2Z3DZ53EsNrWBb0xWXoaNy59IiKCAqksmQEo',
    ...claims,
  })
    .setProtectedHeader({ typ: 'dpop+jwt', alg: 'ES256', jwk, ...header })
    .sign(privateKey);
  return { proof, jkt: await calculateJwkThumbprint(jwk) };
}

// The `ath` above is the hash of this token (RFC 9449's own example token).
const TOKEN = 'Kz~8mXK1EalYznwH-LC-1fBAo.4Ljp~zsPE_NeO.gxU';

describe('dpopProofVerifier', () => {
  it('takes htu without query or fragment, ws as http, and returns the key thumbprint', async () => {
    const verifier = dpopProofVerifier();
    const { proof, jkt } = await signed({ htm: 'GET', htu: 'ws://127.0.0.1:9/ws?x=1#y' });
    await expect(
      verifier.verify(proof, {
        method: 'GET',
        urls: ['http://127.0.0.1:9/ws'],
        accessToken: TOKEN,
      }),
    ).resolves.toEqual({ jkt });
  });

  it('refuses a proof without dpop+jwt, with a private key, or too long', async () => {
    const verifier = dpopProofVerifier();
    const request = { method: 'POST', urls: ['https://r.example/mcp'], accessToken: TOKEN };
    const base = { htm: 'POST', htu: 'https://r.example/mcp' };
    const wrongType = await signed(base, { typ: 'JWT' });
    await expect(verifier.verify(wrongType.proof, request)).rejects.toThrow('typ');
    const withPrivate = await signed(base, {
      jwk: { kty: 'EC', crv: 'P-256', x: 'a', y: 'b', d: 'c' },
    });
    await expect(verifier.verify(withPrivate.proof, request)).rejects.toThrow('not a public key');
    const rejection = await verifier.verify('x'.repeat(9000), request).catch((e: unknown) => e);
    expect(rejection).toBeInstanceOf(TokenRejectedError);
    expect(rejection).toMatchObject({ reason: 'invalid_dpop_proof' });
  });

  it('takes proofs up to maxAgeSeconds old, and a replay only with replayCacheEntries 0', async () => {
    const request = { method: 'POST', urls: ['https://r.example/mcp'], accessToken: TOKEN };
    const base = { htm: 'POST', htu: 'https://r.example/mcp' };
    const old = await signed({ ...base, iat: Math.floor(Date.now() / 1000) - 20 });
    await expect(
      dpopProofVerifier({ maxAgeSeconds: 10 }).verify(old.proof, request),
    ).rejects.toThrow('too old');
    await expect(
      dpopProofVerifier({ maxAgeSeconds: 30 }).verify(old.proof, request),
    ).resolves.toEqual({
      jkt: old.jkt,
    });
    const fresh = await signed(base);
    const remembering = dpopProofVerifier();
    await remembering.verify(fresh.proof, request);
    await expect(remembering.verify(fresh.proof, request)).rejects.toThrow('used before');
    const forgetting = dpopProofVerifier({ replayCacheEntries: 0 });
    await forgetting.verify(fresh.proof, request);
    await expect(forgetting.verify(fresh.proof, request)).resolves.toEqual({ jkt: fresh.jkt });
  });

  it('is never configured with a symmetric algorithm', () => {
    expect(() => dpopProofVerifier({ algorithms: ['HS256'] })).toThrow(ConfigurationError);
  });
});

describe('ReplayCache', () => {
  it('refuses a second use until expiry and keeps at most its bound, oldest dropped first', () => {
    let now = 0;
    const cache = new ReplayCache(2, () => now);
    expect(cache.firstUse('a', 100)).toBe(true);
    expect(cache.firstUse('a', 100)).toBe(false);
    expect(cache.firstUse('b', 100)).toBe(true);
    expect(cache.firstUse('c', 100)).toBe(true);
    expect(cache.size).toBe(2);
    expect(cache.firstUse('a', 100)).toBe(true);
    now = 200;
    expect(cache.firstUse('b', 300)).toBe(true);
  });
});
