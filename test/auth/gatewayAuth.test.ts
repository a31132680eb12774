import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, httpTransport, oauth } from '@rondo/client';
import {
  followRedirect,
  startJwtAuthServer,
  type JwtAuthServer,
  untilServing,
} from '../support/jwtAuthServer.js';
import { freePort } from '../support/nginx.js';
import { FIXTURE_MAIN, GATEWAY_MAIN, writeConfig } from '../gateway/support.js';

// Issue 26/28: `rondo-gateway --auth-*` (the shared flags of @rondo/auth, as rondo-logtalk takes
// them) makes the gateway an OAuth resource server: no token, no upstream.

describe('rondo-gateway --auth-jwks', { timeout: 60_000 }, () => {
  let as: JwtAuthServer;
  let child: ChildProcess;
  let url: string;
  beforeAll(async () => {
    as = await startJwtAuthServer();
    const config = writeConfig({
      fixture: { command: process.execPath, args: [FIXTURE_MAIN], namespace: 'fx' },
    });
    const port = await freePort();
    url = `http://127.0.0.1:${port}/mcp`;
    child = spawn(
      process.execPath,
      [GATEWAY_MAIN, '--transport', 'http', '--port', String(port), '--auth-resource', url, config],
      {
        env: {
          ...process.env,
          RONDO_AUTH_ISSUER: as.issuer,
          RONDO_AUTH_JWKS: as.jwksUrl,
          RONDO_AUTH_SCOPES: 'mcp',
        },
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    await untilServing(child);
  });
  afterAll(async () => {
    child?.kill('SIGTERM');
    await as?.close();
  });

  it('answers 401 without a token, pointing at its metadata', async () => {
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toContain(
      `resource_metadata="${new URL(url).origin}/.well-known/oauth-protected-resource/mcp"`,
    );
  });

  it.each(['2026-07-28', '2025-11-25'] as const)(
    'a client logs in and calls an upstream tool (%s)',
    async (era) => {
      const client = new Client({
        era,
        transport: httpTransport({
          url,
          authorizer: oauth({ onRedirect: followRedirect, redirectUri: 'http://127.0.0.1:1/cb' }),
        }),
      });
      await client.connect();
      await expect.poll(async () => (await client.listTools()).tools.length).toBeGreaterThan(0);
      const result = await client.callTool('fx_test_simple_text');
      expect(result.content[0]).toMatchObject({ type: 'text' });
      await client.close();
    },
  );
});
