import type { HandlerContext } from '@rondo/core';
import { createServer } from '@rondo/core';
import { inMemoryTransport } from '@rondo/client';
import { text } from '@rondo/protocol';
import { describe, expect, it } from 'vitest';
import { callerKey, isolationKey } from '../src/isolation.js';
import { LinkPool } from '../src/linkPool.js';
import { UpstreamLink } from '../src/upstreamLink.js';
import { clientOf, closeAfterTest, endpointOf, gateway, memoryUpstream } from './support.js';

// Per-caller upstream sessions (issue 38): who a call counts as, the pool of sessions, and a
// legacy upstream's per-session state kept apart by the proxy's default isolation.

/** A context as the pipeline hands providers (a `RequestCall`): principal, client key, session. */
function contextOf(facts: { principal?: string; client?: string; sessionId?: string }) {
  return {
    principal: facts.principal === undefined ? undefined : { id: facts.principal },
    client: facts.client,
    sessionId: facts.sessionId,
  } as unknown as HandlerContext;
}

describe('isolationKey', () => {
  it('names a principal, else the client the transport tells apart, else one anonymous caller', () => {
    expect(callerKey(contextOf({ principal: 'ada', client: 'ada' }))).toBe('principal:ada');
    expect(callerKey(contextOf({ client: '10.0.0.1' }))).toBe('client:10.0.0.1');
    expect(callerKey(contextOf({}))).toBe('anonymous');
  });

  it('gives shared no key, principal the caller, session the caller and its session', () => {
    const ctx = contextOf({ principal: 'ada', sessionId: 's1' });
    expect(isolationKey('shared', ctx)).toBeUndefined();
    expect(isolationKey('principal', ctx)).toBe('principal:ada');
    expect(isolationKey('session', ctx)).toBe('principal:ada session:s1');
    expect(isolationKey('session', contextOf({ principal: 'ada' }))).toBe('principal:ada');
  });
});

/** An upstream whose `session` tool says which connection (upstream session) it ran in. */
function countedUpstream() {
  let opened = 0;
  const server = createServer({ name: 'counted', version: '1.0.0' }).tool('session', {}, () =>
    text('ok'),
  );
  const endpoint = endpointOf(server, 'legacy');
  const spec = {
    transport: () => {
      opened += 1;
      return inMemoryTransport(endpoint);
    },
    label: 'counted',
  };
  return { spec, opened: () => opened };
}

function poolOf(
  spec: ReturnType<typeof countedUpstream>['spec'],
  limits: { maxIsolatedSessions: number; isolatedIdleMs: number },
) {
  const events = { connected: () => undefined, wire: () => undefined };
  const pool = new LinkPool('counted', () => new UpstreamLink('counted', spec, {}, events), limits);
  closeAfterTest(() => pool.close());
  return pool;
}

describe('LinkPool', () => {
  it('lends one session per caller key, opened at its first lease', async () => {
    const upstream = countedUpstream();
    const pool = poolOf(upstream.spec, { maxIsolatedSessions: 4, isolatedIdleMs: 60_000 });
    const first = await pool.lease('a');
    const again = await pool.lease('a');
    const other = await pool.lease('b');
    expect(again.client).toBe(first.client);
    expect(other.client).not.toBe(first.client);
    expect(upstream.opened()).toBe(2);
    expect(pool.size).toBe(2);
  });

  it('refuses a new caller with a busy error while every session is in use, then makes room', async () => {
    const upstream = countedUpstream();
    const pool = poolOf(upstream.spec, { maxIsolatedSessions: 1, isolatedIdleMs: 60_000 });
    const held = await pool.lease('a');
    await expect(pool.lease('b')).rejects.toMatchObject({
      code: -32603,
      message:
        'Upstream "counted" is busy: 1 per-caller sessions are in use (maxIsolatedSessions); try again later',
    });
    held.release();
    // An idle session is closed for the new caller.
    const next = await pool.lease('b');
    expect(next.client).not.toBe(held.client);
    expect(pool.size).toBe(1);
  });

  it('closes a session no call has used for idleMs', async () => {
    const upstream = countedUpstream();
    const pool = poolOf(upstream.spec, { maxIsolatedSessions: 4, isolatedIdleMs: 50 });
    const lease = await pool.lease('a');
    lease.release();
    lease.release(); // a second release changes nothing
    expect(pool.size).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(pool.size).toBe(0);
  });
});

describe("a proxy's default isolation over a legacy upstream", () => {
  it('gives callers the transport cannot tell apart the shared session, and no pool', async () => {
    const upstream = createServer({ name: 'x', version: '1' }).tool('hi', {}, () => text('hi'));
    const { provider, endpoint } = gateway(memoryUpstream(endpointOf(upstream, 'legacy')));
    const client = await clientOf(endpoint, '2026-07-28');
    await provider.upstream.start();
    expect((await client.callTool('hi')).content[0]).toMatchObject({ text: 'hi' });
    expect(provider.isolatedSessions).toBe(0);
    await client.close();
  });
});
