import { describe, expect, it } from 'vitest';
import { callWith } from './support/resourceServer.js';
import { startDpopResource, startExtensionAuthServer } from './support/extensionServers.js';
import { testOAuth } from './support/setup.js';

// Issue 43: DPoP in the client (SEP-1932, RFC 9449): a bound token, a fresh proof per request, the
// authorization server's and the resource's nonces, and refresh tokens bound to the same key.
const PUBLIC_CLIENT = { client: { clientId: 'public-client' } };

describe('DPoP: tokens bound to the client key', () => {
  it('gets a DPoP-bound token with a proof and presents it with a fresh proof per request', async () => {
    await using as = await startExtensionAuthServer();
    await using rs = await startDpopResource(as);
    const authorizer = testOAuth({ ...PUBLIC_CLIENT, dpop: true });
    for (const method of ['initialize', 'tools/list', 'tools/call']) {
      expect((await callWith(authorizer, rs.mcpUrl, method)).status).toBe(200);
    }
    const [tokenCall] = as.calls;
    expect(tokenCall?.params.grant_type).toBe('authorization_code');
    expect(tokenCall?.dpop).toBeTypeOf('string');
    const presented = rs.seen.filter((entry) => entry.scheme !== '');
    expect(presented.map((entry) => entry.scheme)).toEqual(['DPoP', 'DPoP', 'DPoP']);
    const jtis = presented.map((entry) => entry.jti);
    expect(jtis.every((jti) => typeof jti === 'string')).toBe(true);
    expect(new Set(jtis).size).toBe(3);
  });

  it('answers use_dpop_nonce from the authorization server and from the resource with their nonces', async () => {
    await using as = await startExtensionAuthServer({ dpopNonce: 'as-nonce' });
    await using rs = await startDpopResource(as, 'rs-nonce');
    const authorizer = testOAuth({ ...PUBLIC_CLIENT, dpop: true });
    expect((await callWith(authorizer, rs.mcpUrl, 'tools/list')).status).toBe(200);
    expect((await callWith(authorizer, rs.mcpUrl, 'tools/call', 1)).status).toBe(200);
    expect(as.calls).toHaveLength(2);
    expect(as.tokens.size).toBe(1);
    expect(rs.seen.at(-1)).toMatchObject({ scheme: 'DPoP' });
  });

  it('refreshes a bound token with a proof of the same key', async () => {
    await using as = await startExtensionAuthServer();
    await using rs = await startDpopResource(as);
    const authorizer = testOAuth({ ...PUBLIC_CLIENT, dpop: true });
    expect((await callWith(authorizer, rs.mcpUrl, 'tools/list')).status).toBe(200);
    as.tokens.clear();
    expect((await callWith(authorizer, rs.mcpUrl, 'tools/list')).status).toBe(200);
    expect(as.calls.map((call) => call.params.grant_type)).toEqual([
      'authorization_code',
      'refresh_token',
    ]);
    expect(as.calls[1]?.dpop).toBeTypeOf('string');
  });

  it('stays with bearer tokens, sending no proof, unless asked', async () => {
    await using as = await startExtensionAuthServer({ dpop: false });
    await using rs = await startDpopResource(as);
    const plain = testOAuth(PUBLIC_CLIENT);
    expect((await callWith(plain, rs.mcpUrl, 'tools/list')).status).toBe(200);
    expect(as.calls.every((call) => call.dpop === undefined)).toBe(true);
    expect(rs.seen.at(-1)).toEqual({ scheme: 'Bearer' });
  });
});
