import { describe, expect, it } from 'vitest';
import {
  OAuthIssuerMismatchError,
  OAuthResourceMismatchError,
  OAuthResponseError,
} from '@rondo/client';
import { callWith } from './support/resourceServer.js';
import { listen, json } from './support/listen.js';
import { seenAt, startPair, testOAuth } from './support/setup.js';

describe('oauth(): what it refuses', () => {
  it('refuses protected-resource metadata that names another resource, before any authorization', async () => {
    await using pair = await startPair({}, { publishedResource: 'https://evil.example/mcp' });
    await expect(callWith(testOAuth(), pair.rs.mcpUrl, 'ping')).rejects.toBeInstanceOf(
      OAuthResourceMismatchError,
    );
    expect(pair.as.seen).toEqual([]);
  });

  it('refuses authorization-server metadata whose issuer is not the one it was looked up for', async () => {
    await using pair = await startPair({ claimedIssuer: 'https://attacker.example' });
    const error = await callWith(testOAuth(), pair.rs.mcpUrl, 'ping').catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(OAuthIssuerMismatchError);
    expect(pair.as.seen.map((entry) => entry.path)).toEqual([
      '/.well-known/oauth-authorization-server',
    ]);
  });

  it.each([
    ['a wrong iss', { issInRedirect: 'wrong' as const }],
    ['an iss with a trailing slash (no normalization)', { issInRedirect: 'slash' as const }],
    ['no iss from a server that promised one', { issInRedirect: 'omit' as const }],
    [
      'a wrong iss from a server that did not promise one',
      { issInRedirect: 'wrong' as const, issSupported: false },
    ],
  ])(
    'refuses an authorization response with %s and sends no code to the token endpoint',
    async (_label, options) => {
      await using pair = await startPair(options);
      await expect(callWith(testOAuth(), pair.rs.mcpUrl, 'ping')).rejects.toBeInstanceOf(
        OAuthIssuerMismatchError,
      );
      expect(seenAt(pair.as, '/authorize')).toHaveLength(1);
      expect(seenAt(pair.as, '/token')).toEqual([]);
    },
  );

  it('gives up when every new token is refused at once with 401, after maxReauthorizations', async () => {
    await using pair = await startPair({}, { verify: () => undefined });
    const response = await callWith(
      testOAuth({ maxReauthorizations: 1 }),
      pair.rs.mcpUrl,
      'ping',
      50,
    );
    expect(response.status).toBe(401);
    expect(seenAt(pair.as, '/authorize')).toHaveLength(2);
  });

  it('accepts a response without iss from a server that never promised one', async () => {
    await using pair = await startPair({ issInRedirect: 'omit', issSupported: false });
    expect((await callWith(testOAuth(), pair.rs.mcpUrl, 'ping')).status).toBe(200);
  });

  it('refuses a metadata answer over the size cap, and one that never comes, with a typed error', async () => {
    await using big = await listen((req, res) => {
      if (!req.url?.startsWith('/.well-known/'))
        return json(res, 401, {}, { 'www-authenticate': 'Bearer' });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(`{"resource":"${'x'.repeat(10_000)}"}`);
    });
    const error = await callWith(testOAuth({ maxBodyBytes: 1024 }), `${big.url}/mcp`, 'ping').catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(OAuthResponseError);
    expect((error as Error).message).toContain('over 1024 bytes');

    await using silent = await listen((req, res) => {
      if (req.url?.startsWith('/.well-known/')) return; // never answers
      json(res, 401, {}, { 'www-authenticate': 'Bearer' });
    });
    const slow = await callWith(testOAuth({ timeoutMs: 300 }), `${silent.url}/mcp`, 'ping').catch(
      (caught: unknown) => caught,
    );
    expect(slow).toBeInstanceOf(OAuthResponseError);
    expect((slow as Error).message).toContain('no answer within 300 ms');
  });
});

describe('oauth(): scopes', () => {
  it('asks for the scope of the challenge', async () => {
    await using pair = await startPair(
      {},
      { challengeScope: true, requiredScopes: () => ['mcp:basic'], scopesSupported: ['other'] },
    );
    expect((await callWith(testOAuth(), pair.rs.mcpUrl, 'ping')).status).toBe(200);
    expect(seenAt(pair.as, '/authorize')[0]?.params.scope).toBe('mcp:basic');
  });

  it('asks for every scope the resource lists when the challenge names none, and none when it lists none', async () => {
    await using listed = await startPair({}, { scopesSupported: ['a', 'b'] });
    expect((await callWith(testOAuth(), listed.rs.mcpUrl, 'ping')).status).toBe(200);
    expect(seenAt(listed.as, '/authorize')[0]?.params.scope).toBe('a b');
    await using unlisted = await startPair();
    expect((await callWith(testOAuth(), unlisted.rs.mcpUrl, 'ping')).status).toBe(200);
    expect(seenAt(unlisted.as, '/authorize')[0]?.params.scope).toBeUndefined();
  });

  it('adds offline_access only where the authorization server lists it', async () => {
    await using without = await startPair({ scopesSupported: ['a'] }, { scopesSupported: ['a'] });
    expect((await callWith(testOAuth(), without.rs.mcpUrl, 'ping')).status).toBe(200);
    expect(seenAt(without.as, '/authorize')[0]?.params.scope).toBe('a');
  });

  it('steps up on 403 insufficient_scope, asking for the old scopes and the new ones', async () => {
    await using pair = await startPair(
      {},
      {
        challengeScope: true,
        requiredScopes: (method) => (method === 'tools/call' ? ['mcp:write'] : ['mcp:basic']),
      },
    );
    const authorizer = testOAuth();
    expect((await callWith(authorizer, pair.rs.mcpUrl, 'tools/list')).status).toBe(200);
    expect((await callWith(authorizer, pair.rs.mcpUrl, 'tools/call')).status).toBe(200);
    expect(seenAt(pair.as, '/authorize').map((entry) => entry.params.scope)).toEqual(
      ['mcp:basic', 'mcp:write'].map((scope, index) =>
        index === 0 ? scope : `mcp:basic ${scope}`,
      ),
    );
  });

  it('gives up a step-up the server keeps refusing after the retry limit', async () => {
    // Every token is refused for lack of a scope the authorization server never grants.
    await using pair = await startPair(
      {},
      { challengeScope: true, requiredScopes: () => ['admin'] },
    );
    const grants = pair.as.tokens;
    const original = grants.set.bind(grants);
    grants.set = (token, grant) => original(token, { ...grant, scope: '' });
    const response = await callWith(testOAuth({ maxStepUps: 2 }), pair.rs.mcpUrl, 'ping', 50);
    expect(response.status).toBe(403);
    expect(seenAt(pair.as, '/authorize')).toHaveLength(3);
  });
});
