import { describe, expect, it } from 'vitest';
import {
  clientCredentials,
  isSecureAuthorizationUrl,
  OAuthIssuerMismatchError,
} from '@rondo/client';
import { startAuthServer } from './support/authorizationServer.js';
import { callWith, startResourceServer } from './support/resourceServer.js';
import { seenAt } from './support/setup.js';
import { PRE_REGISTERED } from './support/authorizationServer.js';

// Issue 38: a confidential client's credentials go only to the issuer it was configured with,
// whatever authorization server the resource names.

describe('clientCredentials({ issuer }): one authorization server', () => {
  it('sends nothing to a foreign authorization server the resource names', async () => {
    await using trusted = await startAuthServer({ authMethods: ['client_secret_basic'] });
    await using foreign = await startAuthServer({ authMethods: ['client_secret_basic'] });
    await using rs = await startResourceServer({
      authorizationServers: () => [foreign.issuer],
      verify: (token) => foreign.tokens.get(token) ?? trusted.tokens.get(token),
    });
    const authorizer = clientCredentials({ ...PRE_REGISTERED, issuer: trusted.issuer });
    const error = await callWith(authorizer, rs.mcpUrl, 'ping').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OAuthIssuerMismatchError);
    expect((error as Error).message).toContain(foreign.issuer);
    expect(foreign.seen).toEqual([]);
    expect(trusted.seen).toEqual([]);
  });

  it('does not follow a resource_metadata URL on another origin', async () => {
    await using trusted = await startAuthServer({ authMethods: ['client_secret_basic'] });
    await using foreign = await startAuthServer();
    await using rs = await startResourceServer({
      authorizationServers: () => [trusted.issuer],
      verify: (token) => trusted.tokens.get(token),
    });
    // A challenge naming metadata on the foreign host: the pinned client reads the resource's own.
    const url = new URL(rs.mcpUrl);
    const authorizer = clientCredentials({ ...PRE_REGISTERED, issuer: trusted.issuer });
    const challenge = new Response(null, {
      status: 401,
      headers: {
        'www-authenticate': `Bearer resource_metadata="${foreign.issuer}/.well-known/oauth-protected-resource"`,
      },
    });
    expect(await authorizer.challenged(challenge, url)).toBe(true);
    expect(foreign.seen).toEqual([]);
    expect(seenAt(trusted, '/token')[0]?.authorization).toBe(
      `Basic ${btoa('pre-registered:pre-secret')}`,
    );
  });

  it('gets its token from the issuer when the resource names it among others', async () => {
    await using trusted = await startAuthServer({ authMethods: ['client_secret_basic'] });
    await using foreign = await startAuthServer();
    await using rs = await startResourceServer({
      authorizationServers: () => [foreign.issuer, trusted.issuer],
      verify: (token) => trusted.tokens.get(token),
    });
    const authorizer = clientCredentials({ ...PRE_REGISTERED, issuer: trusted.issuer });
    expect((await callWith(authorizer, rs.mcpUrl, 'ping')).status).toBe(200);
    expect(seenAt(trusted, '/token')).toHaveLength(1);
    expect(foreign.seen).toEqual([]);
  });

  it('refuses an http issuer off loopback', () => {
    expect(() =>
      clientCredentials({ ...PRE_REGISTERED, issuer: 'http://auth.example.com' }),
    ).toThrow(/issuer must be an https URL/);
    expect(() =>
      clientCredentials({ ...PRE_REGISTERED, issuer: 'http://127.0.0.1:9/' }),
    ).not.toThrow();
    expect(isSecureAuthorizationUrl('https://auth.example.com')).toBe(true);
    expect(isSecureAuthorizationUrl('http://localhost:8080')).toBe(true);
    expect(isSecureAuthorizationUrl('http://[::1]:8080')).toBe(true);
    expect(isSecureAuthorizationUrl('http://10.0.0.1')).toBe(false);
    expect(isSecureAuthorizationUrl('http://127.0.0.1.example.com')).toBe(false);
    expect(isSecureAuthorizationUrl('ftp://x')).toBe(false);
  });
});
