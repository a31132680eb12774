import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { promisify } from 'node:util';
import { decodeJwt, type JWTPayload } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';
import { jwksVerifier } from '@rondo/auth';
import { Client, httpTransport } from '@rondo/client';
import type { TokenVerifier } from '@rondo/core';
import { createServer, serve, text } from '@rondo/server';
import {
  MACHINE_CLIENT,
  startJwtAuthServer,
  type JwtAuthServer,
  untilServing,
} from '../support/jwtAuthServer.js';
import { freePort } from '../support/nginx.js';
import { GATEWAY_MAIN, writeConfig } from './support.js';

const run = promisify(execFile);

// Issue 40, Done when 4 (the gateway's side): an entry with `oauth.tokenExchange` makes
// `rondo-gateway` act for each caller. The caller's verified token is exchanged at a real
// authorization server (RFC 8693) for one whose audience is the upstream, subject the caller and
// actor the gateway; the upstream never sees the caller's own token nor a client-credentials token
// of the gateway's, and a refused exchange is the caller's error, with nothing sent upstream.

describe('rondo-gateway with an oauth.tokenExchange entry', { timeout: scaled(90_000) }, () => {
  let as: JwtAuthServer;
  let upstream: string;
  let gateway: string;
  let child: ChildProcess;
  /** Every token the upstream was shown, and the claims of those it accepted. */
  const presented: string[] = [];
  const accepted: JWTPayload[] = [];
  let closeUpstream: () => Promise<void>;
  /** What the gateway wrote on stderr: never a caller's token. */
  let stderr = '';

  beforeAll(async () => {
    as = await startJwtAuthServer();
    const upstreamPort = await freePort();
    upstream = `http://127.0.0.1:${upstreamPort}/mcp`;
    const verify = jwksVerifier({ issuer: as.issuer, audience: upstream, jwksUrl: as.jwksUrl });
    const recording: TokenVerifier = async (token) => {
      presented.push(token);
      const verified = await verify(token);
      if (verified) accepted.push(decodeJwt(token));
      return verified;
    };
    const server = createServer({ name: 'upstream', version: '1.0.0', log: () => undefined }).tool(
      'whoami',
      { description: 'The principal of the call.' },
      (_args, ctx) => text(ctx.principal?.id ?? 'nobody'),
    );
    const running = await serve(server, {
      transport: 'http',
      port: upstreamPort,
      auth: { resource: upstream, authorizationServers: [as.issuer], verifyToken: recording },
      quiet: true,
    });
    closeUpstream = () => running.close();
    const config = writeConfig({
      up: {
        url: upstream,
        namespace: 'up',
        oauth: {
          clientId: MACHINE_CLIENT.clientId,
          clientSecretEnv: 'MACHINE_SECRET',
          issuer: as.issuer,
          tokenExchange: true,
        },
      },
    });
    const port = await freePort();
    gateway = `http://127.0.0.1:${port}/mcp`;
    const args = ['--transport', 'http', '--port', String(port), '--auth-resource', gateway];
    child = spawn(process.execPath, [GATEWAY_MAIN, ...args, config], {
      env: {
        ...process.env,
        MACHINE_SECRET: MACHINE_CLIENT.clientSecret,
        RONDO_AUTH_ISSUER: as.issuer,
        RONDO_AUTH_JWKS: as.jwksUrl,
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    await untilServing(child);
  });
  afterAll(async () => {
    child?.kill('SIGTERM');
    await closeUpstream?.();
    await as?.close();
  });

  /** A client of the gateway presenting `token`, a token issued for the gateway. */
  const callerWith = (token: string) =>
    new Client({
      era: '2026-07-28',
      transport: httpTransport({ url: gateway, headers: { authorization: `Bearer ${token}` } }),
    });

  it("the upstream sees each caller's subject in a token of its own, the gateway as actor", async () => {
    const tokens = {
      alice: await as.mintToken('alice', gateway),
      bob: await as.mintToken('bob', gateway),
    };
    const answers: string[] = [];
    for (const who of ['alice', 'bob', 'alice'] as const) {
      const client = callerWith(tokens[who]);
      await client.connect();
      // The first caller's request opens the catalog connection (with alice's exchanged token).
      await expect
        .poll(async () => (await client.listTools()).tools.map((tool) => tool.name), {
          timeout: scaled(20_000),
        })
        .toContain('up_whoami');
      const result = await client.callTool('up_whoami');
      answers.push((result.content[0] as { text: string }).text);
      await client.close();
    }
    expect(answers).toEqual(['alice', 'bob', 'alice']);
    expect(as.exchanges.every((exchange) => exchange.resource === upstream)).toBe(true);
    expect(new Set(as.exchanges.map((exchange) => exchange.subject))).toEqual(
      new Set(['alice', 'bob']),
    );
    expect(accepted.length).toBeGreaterThan(0);
    for (const claims of accepted) {
      expect(claims).toMatchObject({ aud: upstream, act: { sub: MACHINE_CLIENT.clientId } });
      expect(['alice', 'bob']).toContain(claims.sub);
    }
    expect(new Set(accepted.map((claims) => claims.sub))).toEqual(new Set(['alice', 'bob']));
    // Never a caller's own token, never a token of the gateway's own (its client credentials).
    expect(presented).not.toContain(tokens.alice);
    expect(presented).not.toContain(tokens.bob);
    expect(presented.map((token) => decodeJwt(token).sub)).not.toContain(MACHINE_CLIENT.clientId);
    expect(stderr).not.toContain(tokens.alice);
    expect(stderr).not.toContain(tokens.bob);
  });

  it('a refused exchange is the caller’s precise error, and the upstream sees nothing of it', async () => {
    as.refusedSubjects.add('mallory');
    const mallory = await as.mintToken('mallory', gateway);
    const before = presented.length;
    const client = callerWith(mallory);
    await client.connect();
    await expect
      .poll(async () => (await client.listTools()).tools.map((tool) => tool.name), {
        timeout: scaled(20_000),
      })
      .toContain('up_whoami');
    const failure = await client.callTool('up_whoami').catch((error: unknown) => error);
    await client.close();
    expect(failure).toMatchObject({ message: expect.stringContaining('invalid_grant') });
    expect(presented.slice(before)).toEqual([]);
    expect(as.exchanges.map((exchange) => exchange.subject)).not.toContain('mallory');
  });
});

describe('rondo-gateway with an oauth.tokenExchange entry and no --auth-*', () => {
  it('refuses to start, in one line: it would have no caller token to exchange', async () => {
    const config = writeConfig({
      up: {
        url: 'http://127.0.0.1:1/mcp',
        oauth: {
          clientId: 'gw',
          clientSecret: 's',
          issuer: 'http://127.0.0.1:1',
          tokenExchange: true,
        },
      },
    });
    const failure = await run(process.execPath, [
      GATEWAY_MAIN,
      '--transport',
      'http',
      '--port',
      '0',
      config,
    ]).catch((error: { code: number; stderr: string }) => error);
    expect(failure).toMatchObject({ code: 1 });
    const lines = (failure as { stderr: string }).stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('entry "up": oauth.tokenExchange exchanges each caller\'s token');
  });
});
