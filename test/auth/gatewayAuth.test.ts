import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';
import { Client, httpTransport, oauth } from '@rondo/client';
import { stdioTransport } from '@rondo/client/node';
import {
  followRedirect,
  MACHINE_CLIENT,
  startJwtAuthServer,
  type JwtAuthServer,
  untilServing,
} from '../support/jwtAuthServer.js';
import { freePort } from '../support/nginx.js';
import { FIXTURE_MAIN, GATEWAY_MAIN, writeConfig } from '../gateway/support.js';

const run = promisify(execFile);

// Issue 26/28: `rondo-gateway --auth-*` (the shared flags of @rondo/auth, as rondo-logtalk takes
// them) makes the gateway an OAuth resource server: no token, no upstream.

describe('rondo-gateway --auth-jwks', { timeout: scaled(60_000) }, () => {
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

  // A gateway in front of this protected one: it logs in as itself (client credentials) with
  // the `oauth` member of its remote entry, so its callers need no token of the upstream's.
  it('a second gateway reaches it with the client credentials of its oauth entry', async () => {
    const config = writeConfig({
      protected: {
        url,
        namespace: '',
        oauth: {
          clientId: MACHINE_CLIENT.clientId,
          issuer: as.issuer,
          clientSecretEnv: 'MACHINE_SECRET',
        },
      },
    });
    const client = new Client({
      era: '2026-07-28',
      transport: stdioTransport({
        command: process.execPath,
        args: [GATEWAY_MAIN, config],
        env: { MACHINE_SECRET: MACHINE_CLIENT.clientSecret },
      }),
    });
    await client.connect();
    await expect.poll(async () => (await client.listTools()).tools.length).toBeGreaterThan(0);
    const result = await client.callTool('fx_test_simple_text');
    expect(result.content[0]).toMatchObject({ type: 'text' });
    await client.close();
    expect(as.issued).toContain('mcp');
  });

  it('`rondo-gateway check` says in one line why a wrong secret cannot reach it', async () => {
    const config = writeConfig({
      protected: {
        url,
        oauth: { clientId: MACHINE_CLIENT.clientId, issuer: as.issuer, clientSecret: 'wrong' },
      },
    });
    const failure = await run(process.execPath, [GATEWAY_MAIN, 'check', config]).catch(
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    expect(failure).toMatchObject({ code: 1 });
    const output = `${failure.stdout}${failure.stderr}`;
    expect(output).toMatch(/protected.*invalid_client/);
    expect(output).not.toContain('wrong');
    expect(output).not.toMatch(/\n\s+at /);
  });
});
