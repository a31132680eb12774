import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  UnauthorizedError,
  type OAuthClientProvider,
} from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type {
  OAuthClientInformationMixed,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import { jwksVerifier } from '@rondo/auth';
import { createServer, serve, text } from '@rondo/server';
import {
  followRedirect,
  startJwtAuthServer,
  type JwtAuthServer,
} from '../support/jwtAuthServer.js';
import { freePort } from '../support/nginx.js';

// Issue 28, Done when 2 with the official v1 client (@modelcontextprotocol/sdk 1.32.2, legacy
// era): its Streamable HTTP transport reads the 403 insufficient_scope challenge, starts an
// authorization for the challenged scopes, and after the redirect (`finishAuth`) the same call
// succeeds on the same session.

const REDIRECT = 'http://127.0.0.1:1/cb';

/** The v1 client's provider, with a headless redirect: the code is read from the redirect. */
class HeadlessProvider implements OAuthClientProvider {
  client: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = '';
  code: string | undefined;
  get redirectUrl(): string {
    return REDIRECT;
  }
  get clientMetadata() {
    return {
      redirect_uris: [REDIRECT],
      client_name: 'sdk v1 step-up test',
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: OAuthClientInformationMixed): void {
    this.client = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens): void {
    this.saved = tokens;
  }
  async redirectToAuthorization(url: URL): Promise<void> {
    this.code = new URL(await followRedirect(url)).searchParams.get('code') ?? undefined;
  }
  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }
  codeVerifier(): string {
    return this.verifier;
  }
}

describe('step-up with the official v1 client', () => {
  let as: JwtAuthServer;
  let url: string;
  let close: () => Promise<void>;
  beforeAll(async () => {
    as = await startJwtAuthServer();
    const port = await freePort();
    url = `http://127.0.0.1:${port}/mcp`;
    const server = createServer({ name: 'ops', version: '1.0.0' })
      .tool('status', { description: 'Anyone with a token.' }, () => text('green'))
      .tool('deploy', { description: 'Needs deploy.', scopes: ['deploy'] }, (_args, ctx) =>
        text(`deployed with ${ctx.principal?.scopes?.join(' ')}`),
      );
    const running = await serve(server, {
      transport: 'http',
      port,
      auth: {
        resource: url,
        authorizationServers: [as.issuer],
        requiredScopes: ['mcp'],
        scopesSupported: ['mcp', 'deploy'],
        verifyToken: jwksVerifier({ issuer: as.issuer, audience: url, jwksUrl: as.jwksUrl }),
      },
      quiet: true,
    });
    close = () => running.close();
  });
  afterAll(async () => {
    await close?.();
    await as?.close();
  });

  it('authorizes, is refused deploy with 403, steps up to its scopes, and the retry succeeds', async () => {
    const provider = new HeadlessProvider();
    // The first connection only authorizes: the v1 client stops at the redirect.
    const first = new StreamableHTTPClientTransport(new URL(url), { authProvider: provider });
    await expect(new Client({ name: 'v1', version: '1.0.0' }).connect(first)).rejects.toThrow(
      UnauthorizedError,
    );
    await first.finishAuth(provider.code!);
    expect(as.authorizations).toEqual(['mcp']);

    const transport = new StreamableHTTPClientTransport(new URL(url), { authProvider: provider });
    const client = new Client({ name: 'v1', version: '1.0.0' });
    await client.connect(transport);
    expect(await client.callTool({ name: 'status' })).toMatchObject({
      content: [{ text: 'green' }],
    });

    // 403 insufficient_scope: the transport starts the step-up authorization for "mcp deploy".
    await expect(client.callTool({ name: 'deploy' })).rejects.toThrow(UnauthorizedError);
    expect(as.authorizations).toEqual(['mcp', 'mcp deploy']);
    await transport.finishAuth(provider.code!);
    expect(provider.saved?.scope).toBe('mcp deploy');
    const deployed = await client.callTool({ name: 'deploy' });
    expect(deployed).toMatchObject({ content: [{ text: 'deployed with mcp deploy' }] });
    expect(transport.sessionId).toBeDefined();
    await client.close();
  });
});
