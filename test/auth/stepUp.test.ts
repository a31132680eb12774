import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jwksVerifier } from '@rondo/auth';
import { Client, httpTransport, oauth } from '@rondo/client';
import { createServer, serve, text } from '@rondo/server';
import {
  followRedirect,
  startJwtAuthServer,
  type JwtAuthServer,
} from '../support/jwtAuthServer.js';
import { freePort } from '../support/nginx.js';

// Issue 28, Done when 2: a real OAuth client steps up against a Rondo server. A local
// authorization server issues JWTs; the server verifies them with its JWKS (`jwksVerifier`). The
// client's token holds `mcp` only; calling `deploy` (which needs `deploy`) gets 403
// insufficient_scope naming `mcp deploy`, the client authorizes again for them, and the same call
// succeeds, in the legacy and the modern era.

describe.each(['2026-07-28', '2025-11-25'] as const)('step-up with @rondo/client (%s)', (era) => {
  let as: JwtAuthServer;
  let url: string;
  let close: () => Promise<void>;
  beforeAll(async () => {
    as = await startJwtAuthServer();
    const port = await freePort();
    url = `http://127.0.0.1:${port}/mcp`;
    const server = createServer({
      name: 'ops',
      version: '1.0.0',
      requestState: { key: 'step-up-test-key-0123456789abcdef0123456789' },
    })
      .tool('status', { description: 'Anyone with a token.' }, () => text('green'))
      .tool('deploy', { description: 'Needs deploy.', scopes: ['deploy'] }, (_args, ctx) =>
        text(`deployed by ${ctx.principal?.id} with ${ctx.principal?.scopes?.join(' ')}`),
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

  it('gets 403 naming the tool scopes, re-authorizes with them, and the retry succeeds', async () => {
    const statuses: number[] = [];
    const challenges: string[] = [];
    const recording: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (String(input instanceof Request ? input.url : input).startsWith(url)) {
        statuses.push(response.status);
        const challenge = response.headers.get('www-authenticate');
        if (response.status === 403 && challenge) challenges.push(challenge);
      }
      return response;
    };
    const client = new Client({
      era,
      transport: httpTransport({
        url,
        fetch: recording,
        authorizer: oauth({ onRedirect: followRedirect, redirectUri: 'http://127.0.0.1:1/cb' }),
      }),
    });
    await client.connect();
    const status = await client.callTool('status');
    expect(status.content[0]).toMatchObject({ text: 'green' });
    expect(as.authorizations).toEqual(['mcp']);

    const deployed = await client.callTool('deploy');
    expect(deployed.content[0]).toMatchObject({ text: 'deployed by user-1 with mcp deploy' });
    expect(challenges).toEqual([
      `Bearer error="insufficient_scope", scope="mcp deploy", resource_metadata="${new URL(url).origin}/.well-known/oauth-protected-resource/mcp"`,
    ]);
    expect(statuses.filter((code) => code === 403)).toHaveLength(1);
    expect(as.authorizations).toEqual(['mcp', 'mcp deploy']);
    expect(as.issued).toEqual(['mcp', 'mcp deploy']);
    // The stepped-up token serves the rest of the session too.
    expect((await client.callTool('deploy')).content[0]).toMatchObject({ text: /deployed/ });
    expect(as.authorizations).toHaveLength(2);
    await client.close();
  });
});
