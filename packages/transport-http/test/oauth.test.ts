import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TokenRejectedError } from '@rondo/core';
import { type HttpServerHandle, type VerifiedToken } from '@rondo/transport-http';
import { serveHttp } from './support/edges.js';
import { fakeEndpoint } from './support/fakeEndpoint.js';
import { post, send } from './support/http.js';

const modernEcho = {
  jsonrpc: '2.0',
  id: 1,
  method: 'echo',
  params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } },
};

describe('OAuth 2.1 resource server', () => {
  let server: HttpServerHandle;
  let resource: string;
  const tokens: Record<string, VerifiedToken> = {};
  const rejections: Record<string, TokenRejectedError> = {
    'wrong-kid': new TokenRejectedError('unknown_key', 'signed by a "key" this resource\\ lacks'),
    'idp-down': new TokenRejectedError('verifier_unavailable', 'the key set could not be read'),
  };
  beforeEach(async () => {
    server = await serveHttp(fakeEndpoint(), {
      auth: {
        // The resource URL is only known after listening; the getter reads it per request.
        get resource() {
          return resource;
        },
        authorizationServers: ['https://auth.example'],
        requiredScopes: ['mcp:read'],
        resourceName: 'Test MCP',
        verifyToken: (token) => {
          if (token === 'crashes') throw new Error(`verifier bug with ${token}`);
          const rejection = rejections[token];
          if (rejection) throw rejection;
          return tokens[token];
        },
      },
    });
    resource = server.url;
    tokens.good = {
      subject: 'alice',
      scopes: ['mcp:read'],
      audience: resource,
      claims: { tenant: 't1' },
    };
    tokens.elsewhere = {
      subject: 'bob',
      scopes: ['mcp:read'],
      audience: 'https://other.example/mcp',
    };
    tokens.narrow = { subject: 'carol', scopes: [], audience: [resource] };
    tokens.expired = { subject: 'dave', scopes: ['mcp:read'], audience: resource, expiresAt: 1 };
  });
  afterEach(() => server.close());

  const metadataUrl = () =>
    `http://127.0.0.1:${server.port}/.well-known/oauth-protected-resource/mcp`;

  it('serves Protected Resource Metadata at the path-suffixed and root well-known URLs', async () => {
    for (const url of [
      metadataUrl(),
      `http://127.0.0.1:${server.port}/.well-known/oauth-protected-resource`,
    ]) {
      const response = await send(url, { method: 'GET' });
      expect(response.status).toBe(200);
      expect(response.json()).toEqual({
        resource,
        authorization_servers: ['https://auth.example'],
        scopes_supported: ['mcp:read'],
        bearer_methods_supported: ['header'],
        resource_name: 'Test MCP',
      });
    }
  });

  it('answers 405 to a metadata URL asked with another method than GET or HEAD (issue 39)', async () => {
    for (const method of ['POST', 'PUT', 'DELETE']) {
      const response = await send(metadataUrl(), { method });
      expect(response.status, method).toBe(405);
      expect(response.headers.allow).toBe('GET, HEAD');
    }
    expect((await send(metadataUrl(), { method: 'HEAD' })).status).toBe(200);
  });

  it('answers a request without a token with 401 and a resource_metadata challenge', async () => {
    const response = await post(server.url, modernEcho);
    expect(response.status).toBe(401);
    expect(response.headers['www-authenticate']).toBe(
      `Bearer scope="mcp:read", resource_metadata="${metadataUrl()}"`,
    );
    expect(response.json().error.code).toBe(-32600);
  });

  it.each(['unknown', 'elsewhere', 'expired'])(
    'answers a %s token with 401 invalid_token',
    async (token) => {
      const response = await post(server.url, modernEcho, { authorization: `Bearer ${token}` });
      expect(response.status).toBe(401);
      expect(response.headers['www-authenticate']).toMatch(/^Bearer error="invalid_token"/);
      expect(response.headers['www-authenticate']).toContain(
        `resource_metadata="${metadataUrl()}"`,
      );
      expect(response.json().error.code).toBe(-32600);
    },
  );

  it('answers a token without the required scopes with 403 insufficient_scope naming them', async () => {
    const response = await post(server.url, modernEcho, { authorization: 'Bearer narrow' });
    expect(response.status).toBe(403);
    expect(response.headers['www-authenticate']).toBe(
      `Bearer error="insufficient_scope", scope="mcp:read", resource_metadata="${metadataUrl()}"`,
    );
    expect(response.json().error).toMatchObject({
      code: -32600,
      data: { requiredScopes: ['mcp:read'] },
    });
  });

  it('puts the verified principal on the exchange', async () => {
    const response = await post(server.url, modernEcho, { authorization: 'Bearer good' });
    expect(response.status).toBe(200);
    expect(response.json().result.principal).toBe('alice');
  });

  it('binds a legacy session to the principal that opened it', async () => {
    const init = await post(
      server.url,
      { jsonrpc: '2.0', id: 1, method: 'initialize' },
      { authorization: 'Bearer good' },
    );
    const sessionId = init.headers['mcp-session-id'] as string;
    tokens.other = { subject: 'eve', scopes: ['mcp:read'], audience: resource };
    const hijack = await post(
      server.url,
      { jsonrpc: '2.0', id: 2, method: 'echo' },
      { authorization: 'Bearer other', 'mcp-session-id': sessionId },
    );
    expect(hijack.status).toBe(404);
  });

  it("puts a TokenRejectedError's description into error_description, in the characters RFC 6750 allows", async () => {
    const response = await post(server.url, modernEcho, { authorization: 'Bearer wrong-kid' });
    expect(response.status).toBe(401);
    expect(response.headers['www-authenticate']).toBe(
      `Bearer error="invalid_token", error_description="signed by a  key  this resource  lacks", resource_metadata="${metadataUrl()}"`,
    );
    expect(response.json().error.message).toBe(
      'Unauthorized: signed by a  key  this resource  lacks',
    );
  });

  it('answers 503 with Retry-After when the verifier is unavailable, not a 401 that would send the client to re-authorize', async () => {
    const response = await post(server.url, modernEcho, { authorization: 'Bearer idp-down' });
    expect(response.status).toBe(503);
    expect(response.headers['retry-after']).toBe('5');
    expect(response.headers['www-authenticate']).toBeUndefined();
    expect(response.json().error.message).toBe(
      'Service Unavailable: the key set could not be read',
    );
  });

  it('keeps a plain throw generic, so its message (which may hold the token) stays inside', async () => {
    const response = await post(server.url, modernEcho, { authorization: 'Bearer crashes' });
    expect(response.status).toBe(401);
    expect(response.headers['www-authenticate']).toContain(
      'error_description="the token is invalid"',
    );
    expect(response.text).not.toContain('verifier bug');
  });
});
