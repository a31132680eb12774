import { decodeJwt, type JWTPayload } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';
import { jwksVerifier } from '@rondo/auth';
import { Client, OAuthTokenError, httpTransport, tokenExchange } from '@rondo/client';
import type { TokenVerifier } from '@rondo/core';
import { createServer, serve, text } from '@rondo/server';
import {
  MACHINE_CLIENT,
  startJwtAuthServer,
  type JwtAuthServer,
} from '../support/jwtAuthServer.js';
import { freePort } from '../support/nginx.js';

// Issue 40 (each caller's identity upstream), its first part: `tokenExchange()` of @rondo/client
// trades a caller's verified token at a real authorization server (RFC 8693) for one of the
// upstream's own: its audience the upstream, its subject the caller, its actor the exchanging
// client. The caller's own token and the client's client-credentials token never reach the
// upstream, two callers are told apart there, and a refused exchange is an error, not a fallback.

/** What the service in front of the upstream was given by its callers (their tokens' audience). */
const GATEWAY = 'http://127.0.0.1:1/gateway';

describe('tokenExchange()', { timeout: scaled(60_000) }, () => {
  let as: JwtAuthServer;
  let upstream: string;
  /** Every token the upstream was shown, and the claims of those it accepted. */
  const presented: string[] = [];
  const accepted: JWTPayload[] = [];
  let close: () => Promise<void>;

  beforeAll(async () => {
    as = await startJwtAuthServer();
    const port = await freePort();
    upstream = `http://127.0.0.1:${port}/mcp`;
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
      port,
      auth: { resource: upstream, authorizationServers: [as.issuer], verifyToken: recording },
      quiet: true,
    });
    close = () => running.close();
  });
  afterAll(async () => {
    await close?.();
    await as?.close();
  });

  /** A client of the upstream acting for the caller whose token is `callerToken`. */
  const actingFor = (callerToken: string) =>
    new Client({
      era: '2026-07-28',
      transport: httpTransport({
        url: upstream,
        authorizer: tokenExchange({
          ...MACHINE_CLIENT,
          issuer: as.issuer,
          subjectToken: () => callerToken,
        }),
      }),
    });

  it("gives the upstream a token of its own audience with each caller's subject", async () => {
    const alice = await as.mintToken('alice', GATEWAY);
    const bob = await as.mintToken('bob', GATEWAY);
    const answers: string[] = [];
    for (const token of [alice, bob, alice]) {
      const client = actingFor(token);
      await client.connect();
      const result = await client.callTool('whoami');
      answers.push((result.content[0] as { text: string }).text);
      await client.close();
    }
    expect(answers).toEqual(['alice', 'bob', 'alice']);
    expect(as.exchanges).toEqual(
      ['alice', 'bob', 'alice'].map((subject) => ({ subject, resource: upstream })),
    );
    expect(accepted.length).toBeGreaterThan(0);
    for (const claims of accepted) {
      expect(claims).toMatchObject({ aud: upstream, act: { sub: MACHINE_CLIENT.clientId } });
      expect(['alice', 'bob']).toContain(claims.sub);
    }
    // Never a caller's own token, never one whose subject is the exchanging client itself.
    expect(presented).not.toContain(alice);
    expect(presented).not.toContain(bob);
    expect(presented.map((token) => decodeJwt(token).sub)).not.toContain(MACHINE_CLIENT.clientId);
  });

  it('keeps the exchanged token until it expires: one exchange for many connections', async () => {
    const carol = await as.mintToken('carol', GATEWAY);
    const authorizer = tokenExchange({ ...MACHINE_CLIENT, issuer: as.issuer, subjectToken: carol });
    for (let round = 0; round < 3; round += 1) {
      const client = new Client({
        era: '2025-11-25',
        transport: httpTransport({ url: upstream, authorizer }),
      });
      await client.connect();
      expect((await client.callTool('whoami')).content[0]).toMatchObject({ text: 'carol' });
      await client.close();
    }
    expect(as.exchanges.filter((exchange) => exchange.subject === 'carol')).toHaveLength(1);
  });

  it('fails with the authorization server’s refusal and sends the upstream nothing', async () => {
    as.refusedSubjects.add('mallory');
    const mallory = await as.mintToken('mallory', GATEWAY);
    const before = presented.length;
    const client = actingFor(mallory);
    const failure = await client.connect().catch((error: unknown) => error);
    await client.close().catch(() => undefined);
    expect(failure).toBeInstanceOf(OAuthTokenError);
    expect(failure).toMatchObject({ oauthError: 'invalid_grant', status: 400 });
    // The discovery request carried no token; no token of any kind followed it.
    expect(presented.slice(before)).toEqual([]);
    expect(as.exchanges.map((exchange) => exchange.subject)).not.toContain('mallory');
  });
});
