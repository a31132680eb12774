import { inMemoryTransport, type ClientTransport } from '@rondo/client';
import { createServer, type Endpoint } from '@rondo/core';
import { text } from '@rondo/protocol';
import { describe, expect, it } from 'vitest';
import type { UpstreamSpec } from '../src/index.js';
import { clientOf, endpointOf, gateway } from './support.js';

// Issue 40: each caller in its own era by default. A proxy with no `era` mirrors an upstream that
// serves both eras: its legacy callers' calls run on a second, legacy-era connection, opened at the
// first legacy call only and closed once no call has used it for `mirrorIdleMs`.

/** An upstream whose `era` tool says which era reached it and whose `hold` waits for `release`. */
function upstreamOf(eras: 'both' | 'modern' | 'legacy') {
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  const server = createServer({ name: 'eras', version: '1.0.0' })
    .tool('era', {}, (_args, ctx) => text(ctx.era))
    .tool('hold', {}, async () => {
      await held;
      return text('released');
    });
  return { endpoint: endpointOf(server, eras), release: () => release() };
}

/** The connections a proxy opened to `endpoint`, by the first request each sent, and the closed. */
function counted(endpoint: Endpoint) {
  const opened: string[] = [];
  const closed: string[] = [];
  const spec: UpstreamSpec = {
    label: 'counted',
    transport: (): ClientTransport => {
      const inner = inMemoryTransport(endpoint);
      let first: string | undefined;
      return {
        endpointKey: inner.endpointKey,
        start: (sink) => inner.start(sink),
        send: (message, context) => {
          if (first === undefined && 'method' in message) opened.push((first = message.method));
          return inner.send(message, context);
        },
        close: () => {
          closed.push(first ?? 'none');
          return inner.close();
        },
      };
    },
  };
  return { spec, opened, closed };
}

const textOf = (result: { content: unknown[] }) => (result.content[0] as { text: string }).text;

describe('the legacy mirror, the default era setting', () => {
  it('opens the legacy connection on the first legacy call only and closes it when idle', async () => {
    const { spec, opened, closed } = counted(upstreamOf('both').endpoint);
    const { provider, endpoint } = gateway(spec, { mirrorIdleMs: 100 });
    const modern = await clientOf(endpoint, '2026-07-28');
    expect(textOf(await modern.callTool('era'))).toBe('modern');
    // Listing, a modern caller and a legacy caller's handshake cost no second connection.
    const legacy = await clientOf(endpoint, '2025-11-25');
    await legacy.listAllTools();
    expect([opened, provider.mirrorConnections]).toEqual([['server/discover'], 0]);

    expect(textOf(await legacy.callTool('era'))).toBe('legacy');
    expect(textOf(await legacy.callTool('era'))).toBe('legacy');
    expect(textOf(await modern.callTool('era'))).toBe('modern');
    expect([opened, provider.mirrorConnections]).toEqual([['server/discover', 'initialize'], 1]);

    await expect.poll(() => provider.mirrorConnections).toBe(0);
    expect(closed).toEqual(['initialize']);
    // The next legacy call opens it again; the primary connection stayed open throughout.
    expect(textOf(await legacy.callTool('era'))).toBe('legacy');
    expect(opened).toEqual(['server/discover', 'initialize', 'initialize']);
    expect(provider.mirrorConnections).toBe(1);
    await Promise.all([modern.close(), legacy.close()]);
  });

  it('keeps the legacy connection while a call runs on it, however long', async () => {
    const upstream = upstreamOf('both');
    const { spec, closed } = counted(upstream.endpoint);
    const { provider, endpoint } = gateway(spec, { mirrorIdleMs: 20 });
    const legacy = await clientOf(endpoint, '2025-11-25');
    const call = legacy.callTool('hold');
    await expect.poll(() => provider.mirrorConnections).toBe(1);
    // Ten idle periods pass with the call open: the connection stays.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect([provider.mirrorConnections, closed]).toEqual([1, []]);
    upstream.release();
    expect(textOf(await call)).toBe('released');
    await expect.poll(() => closed).toEqual(['initialize']);
    await legacy.close();
  });

  it('serves legacy callers on the one connection of a modern-only upstream', async () => {
    const { spec, opened } = counted(upstreamOf('modern').endpoint);
    const { provider, endpoint } = gateway(spec);
    const legacy = await clientOf(endpoint, '2025-11-25');
    expect(textOf(await legacy.callTool('era'))).toBe('modern');
    expect([opened, provider.mirrorConnections]).toEqual([['server/discover'], 0]);
    await legacy.close();
  });

  it('needs no mirror for a legacy upstream', async () => {
    const { spec, opened } = counted(upstreamOf('legacy').endpoint);
    const { provider, endpoint } = gateway(spec);
    const legacy = await clientOf(endpoint, '2025-06-18');
    expect(textOf(await legacy.callTool('era'))).toBe('legacy');
    // One connection: `auto` asked server/discover first, then initialize on it.
    expect([opened, provider.mirrorConnections]).toEqual([['server/discover'], 0]);
    await legacy.close();
  });

  it('translates legacy callers onto the one connection with era "auto"', async () => {
    const { spec, opened } = counted(upstreamOf('both').endpoint);
    const { provider, endpoint } = gateway(spec, { era: 'auto' });
    const legacy = await clientOf(endpoint, '2025-11-25');
    expect(textOf(await legacy.callTool('era'))).toBe('modern');
    expect([opened, provider.mirrorConnections]).toEqual([['server/discover'], 0]);
    await legacy.close();
  });
});
