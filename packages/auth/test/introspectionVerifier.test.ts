import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunningServer } from '@rondo/server';
import { introspectionVerifier, type IntrospectionVerifierOptions } from '@rondo/auth';
import {
  CLIENT_ID,
  CLIENT_SECRET,
  LocalIntrospectionEndpoint,
} from './support/introspectionEndpoint.js';
import {
  RESOURCE,
  callWhoami,
  descriptionOf,
  principalOf,
  serveWithVerifier,
} from './support/mcpServer.js';

const ISSUER = 'https://idp.example';
const inFiveMinutes = () => Math.floor(Date.now() / 1000) + 300;

describe('introspectionVerifier behind a real Rondo HTTP server', () => {
  let endpoint: LocalIntrospectionEndpoint;
  let server: RunningServer<'http'>;

  const start = async (options: Partial<IntrospectionVerifierOptions> = {}) => {
    const verifier = introspectionVerifier({
      endpoint: endpoint.url,
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      audience: RESOURCE,
      issuer: ISSUER,
      timeoutMs: 2000,
      maxBytes: 64 * 1024,
      ...options,
    });
    server = await serveWithVerifier(verifier, ISSUER);
  };

  beforeEach(async () => {
    endpoint = await new LocalIntrospectionEndpoint().start();
    endpoint.answers.set('opaque-alice', {
      active: true,
      sub: 'alice',
      scope: 'mcp:tools files:read',
      client_id: 'desktop-app',
      aud: RESOURCE,
      iss: ISSUER,
      exp: inFiveMinutes(),
    });
  });
  afterEach(async () => {
    await server?.close();
    await endpoint.close();
  });

  it('accepts an active token with HTTP Basic client authentication and maps its principal', async () => {
    await start();
    const answer = await callWhoami(server.url, 'opaque-alice');
    expect(answer.status).toBe(200);
    expect(principalOf(answer)).toMatchObject({
      id: 'alice',
      scopes: ['mcp:tools', 'files:read'],
      clientId: 'desktop-app',
    });
    expect(endpoint.lastClientAuth).toBe('basic');
  });

  it('authenticates with form fields when asked (client_secret_post)', async () => {
    await start({ clientAuth: 'client_secret_post' });
    expect((await callWhoami(server.url, 'opaque-alice')).status).toBe(200);
    expect(endpoint.lastClientAuth).toBe('post');
  });

  it('refuses an inactive token, saying so', async () => {
    await start();
    const answer = await callWhoami(server.url, 'revoked-token');
    expect(answer.status).toBe(401);
    expect(descriptionOf(answer)).toBe(
      'the token is not active (expired, revoked or unknown to the authorization server)',
    );
  });

  it('refuses a token of another audience or issuer, and one with no audience unless allowed', async () => {
    endpoint.answers.set('for-elsewhere', {
      active: true,
      sub: 'bob',
      aud: 'https://x.example',
      iss: ISSUER,
    });
    endpoint.answers.set('foreign', { active: true, sub: 'bob', aud: RESOURCE, iss: 'https://x' });
    endpoint.answers.set('no-aud', { active: true, sub: 'carol', iss: ISSUER });
    await start();
    expect(descriptionOf(await callWhoami(server.url, 'for-elsewhere'))).toBe(
      'the token was not issued for this resource (aud)',
    );
    expect(descriptionOf(await callWhoami(server.url, 'foreign'))).toBe(
      'the token was issued by another issuer',
    );
    expect((await callWhoami(server.url, 'no-aud')).status).toBe(401);
    await server.close();
    await start({ allowMissingAudience: true });
    expect((await callWhoami(server.url, 'no-aud')).status).toBe(200);
  });

  it('introspects a token once for a burst of requests, and keeps refusals too', async () => {
    await start();
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => callWhoami(server.url, 'opaque-alice')),
    );
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
    expect((await callWhoami(server.url, 'opaque-alice')).status).toBe(200);
    await callWhoami(server.url, 'revoked-token');
    await callWhoami(server.url, 'revoked-token');
    expect(endpoint.calls).toBe(2);
  });

  it('keeps at most maxCacheEntries verdicts, dropping the oldest', async () => {
    await start({ maxCacheEntries: 2 });
    for (const token of ['t1', 't2', 't3', 't1']) await callWhoami(server.url, token);
    expect(endpoint.calls).toBe(4);
    await callWhoami(server.url, 't3');
    expect(endpoint.calls).toBe(4);
  });

  it('asks again after cacheTtlMs', async () => {
    await start({ cacheTtlMs: 200 });
    await callWhoami(server.url, 'opaque-alice');
    await new Promise((resolve) => setTimeout(resolve, 400));
    await callWhoami(server.url, 'opaque-alice');
    expect(endpoint.calls).toBe(2);
  });

  it('answers 503 when the endpoint refuses this resource server’s credentials', async () => {
    await start({ clientSecret: 'wrong' });
    const answer = await callWhoami(server.url, 'opaque-alice');
    expect(answer.status).toBe(503);
    expect(answer.body.error?.message).toBe(
      'Service Unavailable: the introspection endpoint could not be read (HTTP 401)',
    );
  });

  it('answers 503 when the endpoint hangs past timeoutMs or answers more than maxBytes, and serves others', async () => {
    await start({ timeoutMs: 3000 });
    await callWhoami(server.url, 'opaque-alice');
    endpoint.mode = 'hang';
    const hung = await callWhoami(server.url, 'another-token');
    expect(hung.status).toBe(503);
    expect(hung.body.error?.message).toBe(
      'Service Unavailable: the introspection endpoint could not be read (no answer within 3000 ms)',
    );
    endpoint.mode = 'huge';
    const huge = await callWhoami(server.url, 'a-third-token');
    expect(huge.status).toBe(503);
    expect(huge.body.error?.message).toBe(
      'Service Unavailable: the introspection endpoint could not be read (larger than 65536 bytes)',
    );
    // A failure is not cached: the endpoint is asked again once it is back.
    endpoint.mode = 'serve';
    expect((await callWhoami(server.url, 'another-token')).status).toBe(401);
    // The cached verdict still serves while the endpoint was away.
    expect((await callWhoami(server.url, 'opaque-alice')).status).toBe(200);
  });
});
