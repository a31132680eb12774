import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { memoryTokenStore } from '@rondo/client';
import { PRE_REGISTERED } from './support/authorizationServer.js';
import { callWith } from './support/resourceServer.js';
import { seenAt, startPair, testOAuth } from './support/setup.js';

describe('oauth(): the authorization code flow against a real authorization server', () => {
  it('discovers, registers, authorizes with PKCE S256 and sends the resource as published', async () => {
    await using pair = await startPair();
    const authorizer = testOAuth();
    const response = await callWith(authorizer, pair.rs.mcpUrl, 'tools/list');
    expect(response.status).toBe(200);
    expect(seenAt(pair.as, '/register')).toHaveLength(1);
    const [authorize] = seenAt(pair.as, '/authorize');
    expect(authorize?.params).toMatchObject({
      response_type: 'code',
      code_challenge_method: 'S256',
      resource: pair.rs.mcpUrl,
    });
    expect(authorize?.params.code_challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const [token] = seenAt(pair.as, '/token');
    expect(token?.params).toMatchObject({
      grant_type: 'authorization_code',
      resource: pair.rs.mcpUrl,
    });
    // The token is kept: the next call needs no new flow.
    expect((await callWith(authorizer, pair.rs.mcpUrl, 'tools/call')).status).toBe(200);
    expect(seenAt(pair.as, '/authorize')).toHaveLength(1);
    expect(pair.rs.served).toEqual(['tools/list', 'tools/call']);
  });

  it('reads protected-resource metadata at the path-aware URL, then the root one, when no challenge names it', async () => {
    await using pair = await startPair({}, { metadataAt: 'root', challengeNamesMetadata: false });
    expect((await callWith(testOAuth(), pair.rs.mcpUrl, 'ping')).status).toBe(200);
    expect(pair.rs.metadataRequests).toEqual([
      '/.well-known/oauth-protected-resource/mcp',
      '/.well-known/oauth-protected-resource',
    ]);
  });

  it('asks a metadata URL once more when the connection drops before an answer', async () => {
    await using pair = await startPair();
    let dropped = 0;
    pair.rs.server.prependListener('request', (req: IncomingMessage) => {
      if (req.url?.startsWith('/.well-known/') && dropped === 0) {
        dropped += 1;
        req.socket.destroy();
      }
    });
    expect((await callWith(testOAuth(), pair.rs.mcpUrl, 'ping')).status).toBe(200);
    expect(dropped).toBe(1);
  });

  it('finds the metadata of an issuer with a path at the path-inserted RFC 8414 URL', async () => {
    await using pair = await startPair({
      prefix: '/tenant1',
      metadataPath: '/.well-known/oauth-authorization-server/tenant1',
    });
    expect((await callWith(testOAuth(), pair.rs.mcpUrl, 'ping')).status).toBe(200);
    expect(pair.as.seen[0]?.path).toBe('/.well-known/oauth-authorization-server/tenant1');
  });

  it('falls back to OpenID discovery when there is no RFC 8414 document', async () => {
    await using pair = await startPair({ metadataPath: '/.well-known/openid-configuration' });
    expect((await callWith(testOAuth(), pair.rs.mcpUrl, 'ping')).status).toBe(200);
    expect(pair.as.seen.slice(0, 2).map((entry) => entry.path)).toEqual([
      '/.well-known/oauth-authorization-server',
      '/.well-known/openid-configuration',
    ]);
  });

  it('uses the client ID metadata document URL as client_id where the server supports it', async () => {
    await using pair = await startPair({ cimd: true });
    const clientMetadataUrl = 'https://client.example/metadata.json';
    expect((await callWith(testOAuth({ clientMetadataUrl }), pair.rs.mcpUrl, 'ping')).status).toBe(
      200,
    );
    expect(seenAt(pair.as, '/register')).toEqual([]);
    expect(seenAt(pair.as, '/authorize')[0]?.params.client_id).toBe(clientMetadataUrl);
  });

  it('uses pre-registered credentials with client_secret_basic when the server cannot register', async () => {
    await using pair = await startPair({
      registration: false,
      authMethods: ['client_secret_basic'],
    });
    const authorizer = testOAuth({ client: { ...PRE_REGISTERED, issuer: pair.as.issuer } });
    expect((await callWith(authorizer, pair.rs.mcpUrl, 'ping')).status).toBe(200);
    const [token] = seenAt(pair.as, '/token');
    expect(token?.authorization).toBe(`Basic ${btoa('pre-registered:pre-secret')}`);
    expect(token?.params.client_secret).toBeUndefined();
  });

  it('sends the registered secret in the body where only client_secret_post is offered', async () => {
    await using pair = await startPair({ authMethods: ['client_secret_post'] });
    expect((await callWith(testOAuth(), pair.rs.mcpUrl, 'ping')).status).toBe(200);
    const [token] = seenAt(pair.as, '/token');
    expect(token?.authorization).toBeUndefined();
    expect(token?.params.client_secret).toMatch(/^secret-/);
    expect(seenAt(pair.as, '/register')[0]?.params).toBeDefined();
  });

  it('refreshes an expired token with its refresh token instead of a new authorization', async () => {
    await using pair = await startPair(
      { refresh: true, scopesSupported: ['offline_access'] },
      { scopesSupported: ['mcp'] },
    );
    const store = memoryTokenStore();
    const authorizer = testOAuth({ store });
    expect((await callWith(authorizer, pair.rs.mcpUrl, 'ping')).status).toBe(200);
    expect(seenAt(pair.as, '/authorize')[0]?.params.scope).toBe('mcp offline_access');
    const held = await store.getTokens(pair.rs.mcpUrl);
    await store.setTokens(pair.rs.mcpUrl, { ...held!, expiresAt: Date.now() - 1 });
    expect((await callWith(authorizer, pair.rs.mcpUrl, 'ping')).status).toBe(200);
    expect(seenAt(pair.as, '/authorize')).toHaveLength(1);
    expect(seenAt(pair.as, '/token').map((entry) => entry.params.grant_type)).toEqual([
      'authorization_code',
      'refresh_token',
    ]);
    expect((await store.getTokens(pair.rs.mcpUrl))?.refreshToken).toMatch(/^rt-/);
  });

  it('registers again with a new authorization server and never shows it the old client id', async () => {
    await using pair = await startPair();
    await using second = await startPair();
    let moved = false;
    await using rs = await (
      await import('./support/resourceServer.js')
    ).startResourceServer({
      authorizationServers: () => [moved ? second.as.issuer : pair.as.issuer],
      verify: (token) => (moved ? second.as.tokens.get(token) : pair.as.tokens.get(token)),
    });
    const authorizer = testOAuth();
    expect((await callWith(authorizer, rs.mcpUrl, 'ping')).status).toBe(200);
    moved = true;
    expect((await callWith(authorizer, rs.mcpUrl, 'ping')).status).toBe(200);
    const firstClient = seenAt(pair.as, '/authorize')[0]?.params.client_id;
    expect(seenAt(second.as, '/register')).toHaveLength(1);
    expect(second.as.seen.some((entry) => JSON.stringify(entry).includes(firstClient ?? '?'))).toBe(
      false,
    );
  });
});
