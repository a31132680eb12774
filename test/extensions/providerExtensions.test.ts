import { afterEach, describe, expect, it } from 'vitest';
import { Client, inMemoryTransport } from '@rondo/client';
import { createEndpoint, createServer, type Provider, type RondoServer } from '@rondo/core';
import { legacyEra } from '@rondo/adapter-2025';
import { modernEra } from '@rondo/adapter-2026';
import type { JsonObject } from '@rondo/protocol';

// A provider announces the extensions its items need (ProviderCapabilities.extensions: a Prolog
// provider declaring `ui`), in both eras' capabilities; a server using an extension of the same
// id announces one entry, the extension's settings merged over the providers'.

const clients: Client[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
});

/** A provider with one tool that announces `extensions`. */
function announcing(name: string, extensions: Record<string, JsonObject>): Provider {
  return {
    name,
    capabilities: () => ({ extensions }),
    tools: () => [{ name: `${name}_tool`, inputSchema: { type: 'object' } }],
    callTool: async () => ({ kind: 'text', text: 'ok' }),
  };
}

async function announced(server: RondoServer, era: 'legacy' | 'modern') {
  const endpoint = createEndpoint(server, {
    modern: modernEra({ alsoSupported: ['2025-11-25'] }),
    legacy: legacyEra(),
  });
  const client = new Client({
    transport: inMemoryTransport(endpoint),
    era: era === 'modern' ? '2026-07-28' : '2025-11-25',
  });
  clients.push(client);
  await client.connect();
  return client.capabilities.extensions;
}

function server(): RondoServer {
  return createServer({ name: 'announcing', version: '1.0.0', log: () => undefined })
    .provider(announcing('apps', { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html'] } }))
    .provider(
      announcing('more', {
        'io.modelcontextprotocol/ui': { fromSecond: true },
        'com.example/only-provider': { on: true },
      }),
    )
    .use({
      id: 'io.modelcontextprotocol/ui',
      settings: () => ({ mimeTypes: ['text/html;profile=mcp-app'] }),
    });
}

describe('extensions a provider announces', () => {
  for (const era of ['legacy', 'modern'] as const)
    it(`are merged with the server's own extensions in the ${era} era`, async () => {
      expect(await announced(server(), era)).toEqual({
        'io.modelcontextprotocol/ui': {
          mimeTypes: ['text/html;profile=mcp-app'],
          fromSecond: true,
        },
        'com.example/only-provider': { on: true },
      });
    });

  it('are announced by a server that uses no extension of that id', async () => {
    const plain = createServer({ name: 'plain', version: '1.0.0', log: () => undefined }).provider(
      announcing('apps', { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html'] } }),
    );
    expect(await announced(plain, 'modern')).toEqual({
      'io.modelcontextprotocol/ui': { mimeTypes: ['text/html'] },
    });
  });
});
