import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SignJWT, UnsecuredJWT, exportSPKI, generateKeyPair } from 'jose';
import type { RunningServer } from '@rondo/server';
import { jwksVerifier } from '@rondo/auth';
import { LocalIdentityProvider, signingKey } from './support/identityProvider.js';
import {
  RESOURCE,
  callWhoami,
  descriptionOf,
  principalOf,
  serveWithVerifier,
} from './support/mcpServer.js';

describe('jwksVerifier behind a real Rondo HTTP server', () => {
  let idp: LocalIdentityProvider;
  let server: RunningServer<'http'>;

  beforeEach(async () => {
    idp = await new LocalIdentityProvider().start();
    idp.keys = [await signingKey('key-1')];
    const verifier = jwksVerifier({
      jwksUrl: idp.jwksUrl,
      issuer: idp.issuer,
      audience: RESOURCE,
      timeoutMs: 1000,
      refetchCooldownMs: 1000,
      failureCooldownMs: 60_000,
    });
    server = await serveWithVerifier(verifier, idp.issuer);
  });
  afterEach(async () => {
    await server.close();
    await idp.close();
  });

  const expectRefused = async (token: string, description: string): Promise<void> => {
    const answer = await callWhoami(server.url, token);
    expect(answer.status).toBe(401);
    expect(answer.challenge).toMatch(/^Bearer error="invalid_token", error_description="/);
    expect(descriptionOf(answer)).toBe(description);
    expect(answer.challenge).not.toContain(token);
    expect(JSON.stringify(answer.body)).not.toContain(token);
  };

  it('accepts a valid token and makes its subject, scopes and client the principal', async () => {
    const token = await idp.sign(
      { scope: 'mcp:tools files:read', client_id: 'desktop-app' },
      { audience: RESOURCE },
    );
    const answer = await callWhoami(server.url, token);
    expect(answer.status).toBe(200);
    expect(principalOf(answer)).toMatchObject({
      id: 'user-42',
      scopes: ['mcp:tools', 'files:read'],
      clientId: 'desktop-app',
      claims: { iss: idp.issuer, aud: RESOURCE },
    });
  });

  it('serves the official SDK client that sends a valid token', async () => {
    const token = await idp.sign({ scp: ['mcp:tools'] }, { audience: RESOURCE });
    const client = new Client({ name: 'sdk-v1', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(server.url), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    try {
      const result = await client.callTool({ name: 'whoami', arguments: {} });
      const principal = JSON.parse((result.content as { text: string }[])[0]!.text);
      expect(principal).toMatchObject({ id: 'user-42', scopes: ['mcp:tools'] });
    } finally {
      await client.close();
    }
  });

  it('refuses an expired token, saying so', async () => {
    const token = await idp.sign(
      {},
      { audience: RESOURCE, expiresIn: Math.floor(Date.now() / 1000) - 300 },
    );
    await expectRefused(token, 'the token has expired');
  });

  it('accepts a token expired within the clock skew', async () => {
    const token = await idp.sign(
      {},
      { audience: RESOURCE, expiresIn: Math.floor(Date.now() / 1000) - 10 },
    );
    expect((await callWhoami(server.url, token)).status).toBe(200);
  });

  it('refuses a token that is not valid yet, saying so', async () => {
    const notBefore = Math.floor(Date.now() / 1000) + 600;
    const token = await idp.sign(
      { nbf: notBefore },
      { audience: RESOURCE, expiresIn: notBefore + 600 },
    );
    await expectRefused(token, 'the token is not valid yet (nbf)');
  });

  it('refuses a token of another issuer, saying so', async () => {
    const token = await new SignJWT({ scope: 'mcp:tools' })
      .setProtectedHeader({ alg: 'RS256', kid: 'key-1' })
      .setIssuer('https://evil.example')
      .setAudience(RESOURCE)
      .setSubject('mallory')
      .setExpirationTime('5m')
      .sign(idp.keys[0]!.privateKey);
    await expectRefused(token, 'the token was issued by another issuer');
  });

  it('refuses a token issued for another resource, saying so', async () => {
    const token = await idp.sign({}, { audience: 'https://other.example.com/mcp' });
    await expectRefused(token, 'the token was not issued for this resource (aud)');
  });

  it('refuses an unsigned token (alg none)', async () => {
    const token = new UnsecuredJWT({ scope: 'mcp:tools' })
      .setIssuer(idp.issuer)
      .setAudience(RESOURCE)
      .setSubject('mallory')
      .setExpirationTime('5m')
      .encode();
    const answer = await callWhoami(server.url, token);
    expect(answer.status).toBe(401);
    expect(descriptionOf(answer)).toMatch(
      /^the token's signing algorithm is not one this resource accepts/,
    );
  });

  it('refuses an HS256 token signed with the public key as its secret', async () => {
    const { publicKey } = await generateKeyPair('RS256', { extractable: true });
    const pem = await exportSPKI(publicKey);
    const token = await new SignJWT({ scope: 'mcp:tools' })
      .setProtectedHeader({ alg: 'HS256', kid: 'key-1' })
      .setIssuer(idp.issuer)
      .setAudience(RESOURCE)
      .setSubject('mallory')
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode(pem));
    const answer = await callWhoami(server.url, token);
    expect(answer.status).toBe(401);
    expect(descriptionOf(answer)).toMatch(
      /^the token's signing algorithm is not one this resource accepts/,
    );
  });

  it('refuses a token whose signature does not verify', async () => {
    const forger = await signingKey('key-1');
    const token = await idp.sign({}, { audience: RESOURCE, key: forger });
    await expectRefused(token, "the token's signature does not verify");
  });

  it('refuses garbage with a generic reason', async () => {
    await expectRefused('not-a-jwt', 'the token is not a signed JWT');
  });
});
