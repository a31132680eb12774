import {
  Client,
  forgetNegotiatedEras,
  inMemoryTransport,
  type ClientTransport,
} from '@rondo/client';
import { createEndpoint, createServer } from '@rondo/core';
import { legacyEra } from '@rondo/adapter-2025';
import { modernEra } from '@rondo/adapter-2026';
import { text } from '@rondo/protocol';
import { afterEach, describe, expect, it } from 'vitest';

// `auto` asks server/discover first and falls back to initialize for a legacy-only server,
// remembering per endpoint what it learned.
function legacyOnlyEndpoint() {
  const server = createServer({ name: 'legacy-only', version: '1.0.0' }).tool('hi', {}, () =>
    text('hi'),
  );
  return createEndpoint(server, { legacy: legacyEra() });
}

/** Records the methods a transport sends. */
function recording(transport: ClientTransport, methods: string[]): ClientTransport {
  return {
    endpointKey: 'memory:legacy-only',
    start: (sink) => transport.start(sink),
    send: (message, context) => {
      if ('method' in message) methods.push(message.method);
      return transport.send(message, context);
    },
    close: () => transport.close(),
  };
}

afterEach(() => forgetNegotiatedEras());

describe('era negotiation', () => {
  it('falls back to initialize for a legacy-only server and remembers it per endpoint', async () => {
    const endpoint = legacyOnlyEndpoint();
    const first: string[] = [];
    const client = new Client({ transport: recording(inMemoryTransport(endpoint), first) });
    expect((await client.connect()).era).toBe('legacy');
    expect(first.slice(0, 2)).toEqual(['server/discover', 'initialize']);
    expect((await client.callTool('hi')).content).toEqual([{ type: 'text', text: 'hi' }]);
    await client.close();

    const second: string[] = [];
    const again = new Client({ transport: recording(inMemoryTransport(endpoint), second) });
    expect((await again.connect()).era).toBe('legacy');
    expect(second[0]).toBe('initialize');
    await again.close();
  });

  it('speaks the modern era to a server that has it, and the pinned legacy revision when asked', async () => {
    const server = createServer({ name: 'both', version: '1.0.0' }).tool('hi', {}, () =>
      text('hi'),
    );
    const endpoint = createEndpoint(server, { modern: modernEra(), legacy: legacyEra() });
    const modern = new Client({ transport: inMemoryTransport(endpoint) });
    expect(await modern.connect()).toMatchObject({ era: 'modern', protocolVersion: '2026-07-28' });
    // A server of both eras lists its legacy revisions too (a proxy mirrors it by them).
    expect(modern.server.supportedVersions).toEqual(
      expect.arrayContaining(['2026-07-28', '2025-11-25', '2025-06-18']),
    );
    await modern.close();
    const legacy = new Client({ transport: inMemoryTransport(endpoint), era: '2025-06-18' });
    expect(await legacy.connect()).toMatchObject({
      era: 'legacy',
      protocolVersion: '2025-06-18',
      supportedVersions: ['2025-06-18'],
    });
    await legacy.close();
  });

  it('lists only the modern revision of a server of the modern era alone', async () => {
    const server = createServer({ name: 'modern', version: '1.0.0' }).tool('hi', {}, () =>
      text('hi'),
    );
    const client = new Client({
      transport: inMemoryTransport(createEndpoint(server, { modern: modernEra() })),
    });
    expect((await client.connect()).supportedVersions).toEqual(['2026-07-28']);
    await client.close();
  });
});
