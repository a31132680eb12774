import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SignJWT, decodeJwt, decodeProtectedHeader, generateKeyPair, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { enterpriseManaged, OAuthTokenError, workloadIdentity } from '@rondo/client';
import { fileAssertion } from '@rondo/client/node';
import { json, listen } from './support/listen.js';
import { callWith } from './support/resourceServer.js';
import { startDpopResource, startExtensionAuthServer } from './support/extensionServers.js';

// Issue 43: workload identity federation (SEP-1933) and enterprise-managed authorization (SEP-990)
// as authorizers of @rondo/client, against real servers on 127.0.0.1.
const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

async function platformToken(audience: string, subject = 'workload-1'): Promise<string> {
  const { privateKey } = await generateKeyPair('ES256');
  return new SignJWT({})
    .setProtectedHeader({ alg: 'ES256' })
    .setIssuer('https://platform.example')
    .setSubject(subject)
    .setAudience(audience)
    .setExpirationTime('5m')
    .sign(privateKey);
}

describe('workloadIdentity(): the JWT-bearer grant from a platform token', () => {
  it('sends the platform token as the assertion, with the client id and the resource', async () => {
    await using as = await startExtensionAuthServer({ dpop: false });
    await using rs = await startDpopResource(as);
    let asked = 0;
    const authorizer = workloadIdentity({
      clientId: 'workload-client',
      assertion: async () => {
        asked += 1;
        return platformToken(as.issuer);
      },
    });
    expect((await callWith(authorizer, rs.mcpUrl, 'tools/list')).status).toBe(200);
    expect(asked).toBe(1);
    const [call] = as.calls;
    expect(call?.params).toMatchObject({
      grant_type: JWT_BEARER,
      client_id: 'workload-client',
      resource: rs.mcpUrl,
    });
    expect(decodeJwt(call?.params.assertion ?? '').aud).toBe(as.issuer);
  });

  it('surfaces a refused grant with its error, without retrying or switching grants', async () => {
    await using as = await startExtensionAuthServer({
      dpop: false,
      jwtBearer: async () => 'invalid_grant',
    });
    await using rs = await startDpopResource(as);
    const authorizer = workloadIdentity({ assertion: await platformToken(as.issuer) });
    const error = await callWith(authorizer, rs.mcpUrl, 'tools/list').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OAuthTokenError);
    expect(error).toMatchObject({ oauthError: 'invalid_grant', status: 400 });
    expect(as.calls).toHaveLength(1);
    expect(as.calls[0]?.params.client_id).toBeUndefined();
  });

  it('refuses an assertion that is not a JWT before anything is sent', async () => {
    await using as = await startExtensionAuthServer({ dpop: false });
    await using rs = await startDpopResource(as);
    const authorizer = workloadIdentity({ assertion: 'not a token' });
    await expect(callWith(authorizer, rs.mcpUrl, 'ping')).rejects.toThrow(/not a compact JWT/);
    expect(as.calls).toEqual([]);
  });

  it('reads the token from a file before each grant (fileAssertion)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'rondo-wif-'));
    const path = join(dir, 'token');
    await writeFile(path, `${await platformToken('a', 'first')}\n`);
    const read = fileAssertion(path);
    expect(decodeJwt(await read()).sub).toBe('first');
    await writeFile(path, await platformToken('a', 'rotated'));
    expect(decodeJwt(await read()).sub).toBe('rotated');
    await writeFile(path, 'x'.repeat(70 * 1024));
    await expect(read()).rejects.toThrow(RangeError);
  });
});

/** An identity provider's token endpoint: RFC 8693 exchange of an ID token for an ID-JAG. */
async function startIdentityProvider(answerWithJag = true) {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  const exchanges: Record<string, string>[] = [];
  const idp = await listen(async (_req, res, body) => {
    const params = Object.fromEntries(new URLSearchParams(body));
    exchanges.push(params);
    const jag = await new SignJWT({ client_id: 'mcp-client', resource: params.resource })
      .setProtectedHeader({ alg: 'ES256', typ: 'oauth-id-jag+jwt' })
      .setIssuer(idp.url)
      .setSubject('alice@example.com')
      .setAudience(params.audience ?? '')
      .setExpirationTime('5m')
      .sign(privateKey);
    json(res, 200, {
      access_token: jag,
      token_type: 'N_A',
      issued_token_type: answerWithJag
        ? 'urn:ietf:params:oauth:token-type:id-jag'
        : 'urn:ietf:params:oauth:token-type:access_token',
    });
  });
  return Object.assign(idp, { exchanges, publicKey });
}

describe('enterpriseManaged(): an ID-JAG from the identity provider, then the JWT-bearer grant', () => {
  it('exchanges the ID token for an ID-JAG for this server, then trades it for a token', async () => {
    await using idp = await startIdentityProvider();
    await using as = await startExtensionAuthServer({
      dpop: false,
      authMethods: ['client_secret_basic'],
      jwtBearer: async (assertion, call) => {
        const { payload } = await jwtVerify(assertion, idp.publicKey, { audience: as.issuer });
        const basic = `Basic ${btoa('mcp-client:mcp-secret')}`;
        return payload.client_id === 'mcp-client' && call.authorization === basic
          ? undefined
          : 'invalid_client';
      },
    });
    await using rs = await startDpopResource(as);
    const authorizer = enterpriseManaged({
      clientId: 'mcp-client',
      clientSecret: 'mcp-secret',
      identityProvider: {
        issuer: idp.url,
        tokenEndpoint: `${idp.url}/token`,
        clientId: 'idp-client',
        idToken: 'header.payload.signature',
      },
    });
    expect((await callWith(authorizer, rs.mcpUrl, 'tools/list')).status).toBe(200);
    expect(idp.exchanges).toEqual([
      {
        grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
        requested_token_type: 'urn:ietf:params:oauth:token-type:id-jag',
        audience: as.issuer,
        resource: rs.mcpUrl,
        subject_token: 'header.payload.signature',
        subject_token_type: 'urn:ietf:params:oauth:token-type:id_token',
        client_id: 'idp-client',
      },
    ]);
    const [grant] = as.calls;
    expect(grant?.params.grant_type).toBe(JWT_BEARER);
    expect(decodeProtectedHeader(grant?.params.assertion ?? '').typ).toBe('oauth-id-jag+jwt');
  });

  it('refuses an exchange answer that is not an ID-JAG, and sends nothing on', async () => {
    await using idp = await startIdentityProvider(false);
    await using as = await startExtensionAuthServer({ dpop: false });
    await using rs = await startDpopResource(as);
    const authorizer = enterpriseManaged({
      clientId: 'mcp-client',
      identityProvider: {
        issuer: idp.url,
        tokenEndpoint: `${idp.url}/token`,
        clientId: 'idp-client',
        idToken: () => 'header.payload.signature',
      },
    });
    const error = await callWith(authorizer, rs.mcpUrl, 'tools/list').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OAuthTokenError);
    expect(error).toMatchObject({ oauthError: 'invalid_response' });
    expect(as.calls).toEqual([]);
  });
});
