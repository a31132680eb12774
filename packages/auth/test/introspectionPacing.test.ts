import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunningServer } from '@rondo/server';
import { INTROSPECTION_PACING_DEFAULTS, introspectionVerifier } from '@rondo/auth';
import {
  CLIENT_ID,
  CLIENT_SECRET,
  LocalIntrospectionEndpoint,
} from './support/introspectionEndpoint.js';
import { RESOURCE, callWhoami, descriptionOf, serveWithVerifier } from './support/mcpServer.js';

// Issue 43, done-when 3: made-up tokens do not amplify onto the introspection endpoint. 1,000 of
// them cause at most `maxConcurrentNewTokens` introspections at once and `newTokensPerSecond` a
// second (after a burst of as many); the others get 503 with Retry-After at once. A known token
// keeps being answered throughout, its verdict expiring and being checked again meanwhile.
// The pace is measured where the verifier lets a token through (its request to the endpoint is
// made at once), not where the endpoint receives it: on a busy machine requests let through a
// second apart can arrive together.

const ISSUER = 'https://idp.example';
const { maxConcurrentNewTokens, newTokensPerSecond } = INTROSPECTION_PACING_DEFAULTS;

/** The most entries of `times` (ms) within any window of `windowMs`. */
function densest(times: readonly number[], windowMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let most = 0;
  let start = 0;
  for (let end = 0; end < sorted.length; end += 1) {
    while (sorted[end]! - sorted[start]! >= windowMs) start += 1;
    most = Math.max(most, end - start + 1);
  }
  return most;
}

describe('introspection pacing for tokens not seen before', () => {
  let endpoint: LocalIntrospectionEndpoint;
  let server: RunningServer<'http'>;
  /** When the verifier asked the endpoint about a made-up token (ms): the pacer's admissions. */
  let admitted: number[];
  const realFetch = globalThis.fetch;

  beforeEach(async () => {
    endpoint = await new LocalIntrospectionEndpoint().start();
    admitted = [];
    globalThis.fetch = (input, init) => {
      const body = init?.body;
      if (typeof body === 'string' && body.includes('made-up-')) admitted.push(Date.now());
      return realFetch(input, init);
    };
    endpoint.delayMs = 50;
    endpoint.answers.set('opaque-alice', {
      active: true,
      sub: 'alice',
      aud: RESOURCE,
      iss: ISSUER,
      exp: Math.floor(Date.now() / 1000) + 600,
    });
    const verifier = introspectionVerifier({
      endpoint: endpoint.url,
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      audience: RESOURCE,
      issuer: ISSUER,
      cacheTtlMs: 250,
    });
    server = await serveWithVerifier(verifier, ISSUER);
  });
  afterEach(async () => {
    globalThis.fetch = realFetch;
    await server?.close();
    await endpoint.close();
  });

  it('1,000 made-up tokens: bounded introspections at once and per second, alice still served', async () => {
    expect((await callWhoami(server.url, 'opaque-alice')).status).toBe(200);
    const statuses = new Map<number, number>();
    const aliceStatuses: number[] = [];
    const started = Date.now();
    for (let wave = 0; wave < 10; wave += 1) {
      const made = Array.from({ length: 100 }, (_, index) =>
        callWhoami(server.url, `made-up-${wave}-${index}`).then((answer) => {
          statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
          if (answer.status === 503) {
            expect(Number(answer.retryAfter)).toBeGreaterThanOrEqual(1);
            expect(descriptionOf(answer) ?? answer.body.error?.message ?? '').toMatch(/new tokens/);
          }
        }),
      );
      const alice = callWhoami(server.url, 'opaque-alice').then((a) =>
        aliceStatuses.push(a.status),
      );
      await Promise.all([...made, alice]);
    }
    const elapsedSeconds = (Date.now() - started) / 1000;
    expect(aliceStatuses).toEqual(Array(10).fill(200));
    expect([...statuses.keys()].every((status) => status === 401 || status === 503)).toBe(true);
    expect((statuses.get(401) ?? 0) + (statuses.get(503) ?? 0)).toBe(1000);
    expect(statuses.get(503) ?? 0, JSON.stringify([...statuses])).toBeGreaterThan(0);
    expect(endpoint.maxUnknownAtOnce).toBeLessThanOrEqual(maxConcurrentNewTokens);
    expect(admitted).toHaveLength(endpoint.unknownStarts.length);
    // The bucket holds a second's worth, so any second sees at most two seconds' worth.
    expect(densest(admitted, 1000), 'made-up tokens let through in one second').toBeLessThanOrEqual(
      2 * newTokensPerSecond,
    );
    expect(
      admitted.length,
      `made-up tokens let through in ${elapsedSeconds} s`,
    ).toBeLessThanOrEqual(newTokensPerSecond * (1 + Math.ceil(elapsedSeconds)));
    expect(statuses.get(401)).toBe(endpoint.unknownStarts.length);
  });

  it('checks a known token again once its verdict expired, without pacing it', async () => {
    for (let round = 0; round < 3; round += 1) {
      expect((await callWhoami(server.url, 'opaque-alice')).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    expect(endpoint.calls).toBe(3);
    expect(endpoint.unknownStarts).toEqual([]);
  });
});
