import { exportPKCS8, generateKeyPair, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { clientCredentials, OAuthTokenError } from '@rondo/client';
import { callWith } from './support/resourceServer.js';
import { seenAt, startPair } from './support/setup.js';
import { PRE_REGISTERED } from './support/authorizationServer.js';

describe('clientCredentials(): machine clients', () => {
  it('gets a token with client_secret_basic and the resource parameter', async () => {
    await using pair = await startPair(
      { authMethods: ['client_secret_basic'] },
      { scopesSupported: ['jobs'] },
    );
    const authorizer = clientCredentials({ ...PRE_REGISTERED });
    expect((await callWith(authorizer, pair.rs.mcpUrl, 'tools/list')).status).toBe(200);
    const [token] = seenAt(pair.as, '/token');
    expect(token?.authorization).toBe(`Basic ${btoa('pre-registered:pre-secret')}`);
    expect(token?.params).toMatchObject({
      grant_type: 'client_credentials',
      resource: pair.rs.mcpUrl,
      scope: 'jobs',
    });
    expect(seenAt(pair.as, '/authorize')).toEqual([]);
  });

  it('signs a private_key_jwt assertion issued by and about the client, for the issuer', async () => {
    const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
    await using pair = await startPair({
      authMethods: ['private_key_jwt'],
      verifyAssertion: async (assertion, issuer) => {
        const { payload } = await jwtVerify(assertion, publicKey, { audience: issuer });
        return payload.iss === 'robot' && payload.sub === 'robot' && payload.jti
          ? 'robot'
          : undefined;
      },
    });
    const authorizer = clientCredentials({
      clientId: 'robot',
      privateKey: { privateKey: await exportPKCS8(privateKey), algorithm: 'ES256' },
    });
    expect((await callWith(authorizer, pair.rs.mcpUrl, 'ping')).status).toBe(200);
    const [token] = seenAt(pair.as, '/token');
    expect(token?.params.client_assertion_type).toBe(
      'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
    );
  });

  it('rejects with the OAuth error code, never the secret, when the server refuses the client', async () => {
    await using pair = await startPair({ authMethods: ['client_secret_basic'] });
    const authorizer = clientCredentials({
      clientId: 'pre-registered',
      clientSecret: 'wrong-secret',
    });
    const error = await callWith(authorizer, pair.rs.mcpUrl, 'ping').catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(OAuthTokenError);
    expect(error).toMatchObject({
      oauthError: 'invalid_client',
      code: 'client.oauth-token',
      status: 401,
    });
    expect(String((error as Error).message)).not.toContain('wrong-secret');
  });

  it('needs a secret or a key', () => {
    expect(() => clientCredentials({ clientId: 'x' })).toThrow(TypeError);
  });
});
