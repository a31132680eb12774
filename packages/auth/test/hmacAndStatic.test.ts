import { describe, expect, it } from 'vitest';
import { SignJWT } from 'jose';
import { ConfigurationError } from '@rondo/core';
import { hmacVerifier, scopesOf, staticTokenVerifier } from '@rondo/auth';
import {
  RESOURCE,
  callWhoami,
  descriptionOf,
  principalOf,
  serveWithVerifier,
} from './support/mcpServer.js';

const SECRET = 'an internal secret of at least 32 bytes!';
const ISSUER = 'https://internal.example';

const mint = (claims: Record<string, unknown>, secret = SECRET, alg = 'HS256') =>
  new SignJWT({ scope: 'mcp:tools', ...claims })
    .setProtectedHeader({ alg })
    .setIssuer(ISSUER)
    .setAudience(RESOURCE)
    .setSubject('service-a')
    .setExpirationTime('5m')
    .sign(new TextEncoder().encode(secret));

describe('hmacVerifier', () => {
  it('accepts a token signed with the shared secret and refuses one signed with another, on the wire', async () => {
    const server = await serveWithVerifier(
      hmacVerifier({ secret: SECRET, issuer: ISSUER, audience: RESOURCE }),
      ISSUER,
    );
    try {
      const good = await callWhoami(server.url, await mint({ azp: 'batch-job' }));
      expect(good.status).toBe(200);
      expect(principalOf(good)).toMatchObject({
        id: 'service-a',
        scopes: ['mcp:tools'],
        clientId: 'batch-job',
      });
      const forged = await callWhoami(
        server.url,
        await mint({}, 'another secret of at least 32 bytes!!'),
      );
      expect(forged.status).toBe(401);
      expect(descriptionOf(forged)).toBe("the token's signature does not verify");
    } finally {
      await server.close();
    }
  });

  it('refuses an algorithm it was not given', async () => {
    const verify = hmacVerifier({ secret: SECRET, issuer: ISSUER, audience: RESOURCE });
    await expect(verify(await mint({}, SECRET, 'HS512'))).rejects.toMatchObject({
      reason: 'algorithm_not_allowed',
    });
  });

  it('allows clockSkewSeconds of slack on exp, and none when it is 0', async () => {
    const expiredJustNow = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer(ISSUER)
      .setAudience(RESOURCE)
      .setSubject('service-a')
      .setExpirationTime(Math.floor(Date.now() / 1000) - 5)
      .sign(new TextEncoder().encode(SECRET));
    const lenient = hmacVerifier({ secret: SECRET, issuer: ISSUER, audience: RESOURCE });
    expect((await lenient(expiredJustNow))?.subject).toBe('service-a');
    const strict = hmacVerifier({
      secret: SECRET,
      issuer: ISSUER,
      audience: RESOURCE,
      clockSkewSeconds: 0,
    });
    await expect(strict(expiredJustNow)).rejects.toMatchObject({ reason: 'expired' });
  });

  it('refuses a token without exp, and one that names no subject or client', async () => {
    const verify = hmacVerifier({ secret: SECRET, issuer: ISSUER, audience: RESOURCE });
    const key = new TextEncoder().encode(SECRET);
    const noExpiry = await new SignJWT({ sub: 'service-a' })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer(ISSUER)
      .setAudience(RESOURCE)
      .sign(key);
    await expect(verify(noExpiry)).rejects.toMatchObject({
      reason: 'invalid_claims',
      description: 'the token has no expiry (exp)',
    });
    const nobody = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer(ISSUER)
      .setAudience(RESOURCE)
      .setExpirationTime('5m')
      .sign(key);
    await expect(verify(nobody)).rejects.toMatchObject({
      reason: 'invalid_claims',
      description: 'the token names no subject (sub)',
    });
  });

  it('refuses a short secret and asymmetric algorithms at configuration', () => {
    expect(() => hmacVerifier({ secret: 'short', issuer: ISSUER, audience: RESOURCE })).toThrow(
      ConfigurationError,
    );
    expect(() =>
      hmacVerifier({ secret: SECRET, issuer: ISSUER, audience: RESOURCE, algorithms: ['RS256'] }),
    ).toThrow(ConfigurationError);
  });
});

describe('staticTokenVerifier', () => {
  it('maps a known token to its grant and refuses an unknown one as inactive', async () => {
    const verify = staticTokenVerifier({
      audience: RESOURCE,
      tokens: { 'dev-token': { subject: 'dev', scopes: ['mcp:tools'], clientId: 'cli' } },
    });
    expect(await verify('dev-token')).toEqual({
      subject: 'dev',
      scopes: ['mcp:tools'],
      audience: RESOURCE,
      clientId: 'cli',
    });
    await expect(verify('dev-token2')).rejects.toMatchObject({
      reason: 'inactive',
      description: 'the token is not known to this resource',
    });
  });
});

describe('scopesOf', () => {
  it('reads scope (space-separated) and scp (an array or a string), once each', () => {
    expect(scopesOf({ scope: 'a  b' })).toEqual(['a', 'b']);
    expect(scopesOf({ scp: ['a', 'c', 7] })).toEqual(['a', 'c']);
    expect(scopesOf({ scp: 'd e', scope: 'd' })).toEqual(['d', 'e']);
    expect(scopesOf({})).toEqual([]);
  });
});
