import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';
import { Client, httpTransport, oauth } from '@rondo/client';
import {
  followRedirect,
  startJwtAuthServer,
  type JwtAuthServer,
  untilServing,
} from '../support/jwtAuthServer.js';
import { freePort } from '../support/nginx.js';

// Issue 28, for users who write no Node code: `rondo-logtalk --auth-*` verifies JWTs with the
// identity provider's JWKS, and a Prolog tool_scopes/2 makes a real OAuth client step up.

const HOST = join(import.meta.dirname, '../../apps/logtalk-host/dist/main.js');
const OPS = `:- module(ops, []).
tools([tool(status, status, 1), tool(deploy, deploy, 1)]).
:- mode(status(-atom), one).
status(green).
:- mode(deploy(-atom), one).
deploy(done).
tool_scopes(deploy, [deploy]).
`;

describe('rondo-logtalk --auth-jwks with tool_scopes/2', { timeout: scaled(60_000) }, () => {
  let as: JwtAuthServer;
  let child: ChildProcess;
  let url: string;
  let dir: string;
  beforeAll(async () => {
    as = await startJwtAuthServer();
    dir = mkdtempSync(join(tmpdir(), 'rondo-logtalk-auth-'));
    writeFileSync(join(dir, 'ops.pl'), OPS);
    const port = await freePort();
    url = `http://127.0.0.1:${port}/mcp`;
    child = spawn(
      process.execPath,
      [
        HOST,
        '--transport',
        'http',
        '--port',
        String(port),
        '--workers',
        '1',
        '--auth-resource',
        url,
        '--auth-jwks',
        as.jwksUrl,
        join(dir, 'ops.pl'),
      ],
      {
        env: { ...process.env, RONDO_AUTH_ISSUER: as.issuer, RONDO_AUTH_SCOPES: 'mcp' },
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    await untilServing(child);
  });
  afterAll(async () => {
    child?.kill('SIGTERM');
    await as?.close();
    rmSync(dir, { recursive: true, force: true });
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
    expect(response.headers.get('www-authenticate')).toBe(
      `Bearer scope="mcp", resource_metadata="${new URL(url).origin}/.well-known/oauth-protected-resource/mcp"`,
    );
    const metadata = await fetch(`${new URL(url).origin}/.well-known/oauth-protected-resource/mcp`);
    expect(await metadata.json()).toMatchObject({
      resource: url,
      authorization_servers: [as.issuer],
    });
    // Logtalk's http_oauth_metadata_method_not_allowed_01: the document is only read.
    const posted = await fetch(`${new URL(url).origin}/.well-known/oauth-protected-resource/mcp`, {
      method: 'POST',
    });
    expect(posted.status).toBe(405);
    expect(posted.headers.get('allow')).toBe('GET, HEAD');
  });

  it.each(['2026-07-28', '2025-11-25'] as const)(
    'a client logs in, steps up for deploy and calls it (%s)',
    async (era) => {
      const before = as.authorizations.length;
      const client = new Client({
        era,
        transport: httpTransport({
          url,
          authorizer: oauth({ onRedirect: followRedirect, redirectUri: 'http://127.0.0.1:1/cb' }),
        }),
      });
      await client.connect();
      expect((await client.callTool('status')).structuredContent).toEqual({ arg1: 'green' });
      expect((await client.callTool('deploy')).structuredContent).toEqual({ arg1: 'done' });
      expect(as.authorizations.slice(before)).toEqual(['mcp', 'mcp deploy']);
      await client.close();
    },
  );
});
