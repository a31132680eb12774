import { afterEach, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import type { RunningServer } from '@rondo/server';
import { ConfigurationError } from '@rondo/core';
import { TokenRejectedError, jwksVerifier } from '@rondo/auth';
import { LocalIdentityProvider, signingKey } from './support/identityProvider.js';
import { RESOURCE, callWhoami, descriptionOf, serveWithVerifier } from './support/mcpServer.js';

const COOLDOWN_MS = 1000;
const TIMEOUT_MS = 3000;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('jwksVerifier key set: rotation, failures and bounds, through a real Rondo HTTP server', () => {
  let idp: LocalIdentityProvider;
  let server: RunningServer<'http'>;

  beforeEach(async () => {
    idp = await new LocalIdentityProvider().start();
    idp.keys = [await signingKey('key-1')];
    const verifier = jwksVerifier({
      jwksUrl: idp.jwksUrl,
      issuer: idp.issuer,
      audience: RESOURCE,
      timeoutMs: TIMEOUT_MS,
      refetchCooldownMs: COOLDOWN_MS,
      failureCooldownMs: 60_000,
    });
    server = await serveWithVerifier(verifier, idp.issuer);
    // The first token makes the server fetch the set once.
    const first = await callWhoami(server.url, await idp.sign({}, { audience: RESOURCE }));
    expect(first.status).toBe(200);
    expect(idp.fetches).toBe(1);
  });
  afterEach(async () => {
    await server.close();
    await idp.close();
  });

  it('refetches the set for a new kid after rotation and accepts the new key', async () => {
    const rotated = await signingKey('key-2');
    idp.keys = [rotated, idp.keys[0]!];
    await pause(COOLDOWN_MS + 100);
    const answer = await callWhoami(
      server.url,
      await idp.sign({}, { audience: RESOURCE, key: rotated }),
    );
    expect(answer.status).toBe(200);
    expect(idp.fetches).toBe(2);
  });

  it('refetches for unknown kids at most once per cooldown, refusing them as unknown keys', async () => {
    await pause(COOLDOWN_MS + 100);
    const stranger = await signingKey('key-9');
    const started = performance.now();
    for (let attempt = 0; attempt < 4; attempt += 1) {
      const answer = await callWhoami(
        server.url,
        await idp.sign({}, { audience: RESOURCE, key: stranger }),
      );
      expect(answer.status).toBe(401);
      expect(descriptionOf(answer)).toBe(
        'the token was signed with a key this resource does not know (kid)',
      );
    }
    // On a busy machine the four attempts can outlast one cooldown; each further cooldown begun
    // may then refetch once more, never more often.
    const cooldownsBegun = Math.ceil((performance.now() - started) / COOLDOWN_MS);
    expect(idp.fetches - 1).toBeGreaterThanOrEqual(1);
    expect(idp.fetches - 1).toBeLessThanOrEqual(cooldownsBegun);
    if (cooldownsBegun === 1) expect(idp.fetches).toBe(2);
  });

  it('answers 503 with Retry-After when the set hangs on a refetch, serving known keys meanwhile', async () => {
    idp.mode = 'hang';
    await pause(COOLDOWN_MS + 100);
    const newKey = await signingKey('key-2');
    const knownToken = await idp.sign({}, { audience: RESOURCE });
    let hangingDone = false;
    const hanging = callWhoami(
      server.url,
      await idp.sign({}, { audience: RESOURCE, key: newKey }),
    ).finally(() => (hangingDone = true));
    // While the refetch hangs, a token signed by a known key is served without waiting for it.
    const known = await callWhoami(server.url, knownToken);
    expect(known.status).toBe(200);
    expect(hangingDone).toBe(false);
    const answer = await hanging;
    expect(answer.status).toBe(503);
    expect(answer.retryAfter).toBe('5');
    expect(answer.body.error?.message).toBe(
      `Service Unavailable: the key set (JWKS) could not be read (no answer within ${TIMEOUT_MS} ms)`,
    );
    expect(idp.fetches).toBe(2);
  });

  it('refuses a 10 MB key set with 503 and goes on serving tokens of the keys it knows', async () => {
    idp.mode = 'huge';
    await pause(COOLDOWN_MS + 100);
    const newKey = await signingKey('key-2');
    const answer = await callWhoami(
      server.url,
      await idp.sign({}, { audience: RESOURCE, key: newKey }),
    );
    expect(answer.status).toBe(503);
    expect(answer.body.error?.message).toBe(
      'Service Unavailable: the key set (JWKS) could not be read (larger than 262144 bytes)',
    );
    const known = await callWhoami(server.url, await idp.sign({}, { audience: RESOURCE }));
    expect(known.status).toBe(200);
  });
});

describe('jwksVerifier with a key set endpoint that is down from the start', () => {
  it('answers 503 after the fetch timeout, then from memory without asking again, and the server serves other requests', async () => {
    const idp = await new LocalIdentityProvider().start();
    onTestFinished(() => idp.close());
    idp.keys = [await signingKey('key-1')];
    idp.mode = 'hang';
    const verifier = jwksVerifier({
      jwksUrl: idp.jwksUrl,
      issuer: idp.issuer,
      audience: RESOURCE,
      timeoutMs: TIMEOUT_MS,
    });
    const server = await serveWithVerifier(verifier, idp.issuer);
    try {
      const token = await idp.sign({}, { audience: RESOURCE });
      const [first, second] = await Promise.all([
        callWhoami(server.url, token),
        callWhoami(server.url, token),
      ]);
      expect([first.status, second.status]).toEqual([503, 503]);
      // Both waited on one fetch; the next request is answered from the remembered failure.
      expect(idp.fetches).toBe(1);
      const third = await callWhoami(server.url, token);
      expect(third.status).toBe(503);
      expect(idp.fetches).toBe(1);
      const metadata = await fetch(
        new URL('/.well-known/oauth-protected-resource/mcp', server.url),
      );
      expect(metadata.status).toBe(200);
    } finally {
      await server.close();
    }
  });
});

describe('jwksVerifier cache and configuration', () => {
  let idp: LocalIdentityProvider;
  beforeEach(async () => {
    idp = await new LocalIdentityProvider().start();
    idp.keys = [await signingKey('key-1')];
  });
  afterEach(() => idp.close());

  it('keeps the set for the max-age of its Cache-Control, then fetches it again', async () => {
    idp.cacheControl = 'public, max-age=1';
    const verify = jwksVerifier({
      jwksUrl: idp.jwksUrl,
      issuer: idp.issuer,
      audience: RESOURCE,
      minCacheMs: 0,
    });
    const token = await idp.sign({}, { audience: RESOURCE });
    await verify(token);
    await verify(token);
    expect(idp.fetches).toBe(1);
    await pause(1200);
    await verify(token);
    expect(idp.fetches).toBe(2);
  });

  it('keeps a no-store set for minCacheMs, so the provider is not asked on every request', async () => {
    idp.cacheControl = 'no-store';
    const verify = jwksVerifier({
      jwksUrl: idp.jwksUrl,
      issuer: idp.issuer,
      audience: RESOURCE,
      minCacheMs: 60_000,
    });
    const token = await idp.sign({}, { audience: RESOURCE });
    for (let i = 0; i < 3; i += 1) await verify(token);
    expect(idp.fetches).toBe(1);
  });

  it('reports the reason as a TokenRejectedError a caller can read', async () => {
    const verify = jwksVerifier({ jwksUrl: idp.jwksUrl, issuer: idp.issuer, audience: RESOURCE });
    const token = await idp.sign({}, { audience: 'https://elsewhere.example/mcp' });
    await expect(verify(token)).rejects.toMatchObject({
      name: 'TokenRejectedError',
      reason: 'wrong_audience',
    });
    await expect(verify(token)).rejects.toBeInstanceOf(TokenRejectedError);
  });

  it('refuses a jwksUrl that is not a URL at configuration', () => {
    expect(() =>
      jwksVerifier({ jwksUrl: 'certs.json', issuer: idp.issuer, audience: RESOURCE }),
    ).toThrow(ConfigurationError);
  });

  it.each([[['none']], [['HS256']], [['RS256', 'HS512']], [[]]])(
    'refuses the algorithm list %j at configuration',
    (algorithms) => {
      expect(() =>
        jwksVerifier({ jwksUrl: idp.jwksUrl, issuer: idp.issuer, audience: RESOURCE, algorithms }),
      ).toThrow(ConfigurationError);
    },
  );
});
