import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Client, inMemoryTransport } from '@rondo/client';
import {
  createEndpoint,
  createServer,
  extensionMethod,
  text,
  type Extension,
  type ExtensionHost,
  type ProviderRegistry,
  type RondoServer,
} from '@rondo/core';
import { legacyEra } from '@rondo/adapter-2025';
import { modernEra } from '@rondo/adapter-2026';

// What an extension sees of the server (issue 41): an ExtensionHost where it serves and where it
// attaches, never the runtime. Each member is read through a real client in both eras.

const clients: Client[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
});

/** An extension answering `host/look` with what its host says, and keeping what `attach` got. */
function lookingExtension(attached: {
  server?: ProviderRegistry;
  host?: ExtensionHost;
}): Extension {
  return {
    id: 'com.example/host',
    settings: (_era, host) => ({ tools: host.capabilities().tools }),
    attach: (server, host) => {
      attached.server = server;
      attached.host = host;
    },
    methods: {
      'host/look': extensionMethod({
        params: z.object({ name: z.string() }),
        eras: ['legacy', 'modern'],
        handle: async ({ name }, call, host) => {
          const tool = host.tool(name, call.principal);
          host.log('info', `looked at ${name}`);
          return {
            server: host.info.name,
            pageSize: host.pageSize,
            found: tool ? { name: tool.definition.name, task: tool.task.support } : null,
            callable: host
              .callableTools()
              .map((entry) => entry.definition.name)
              .sort(),
          };
        },
      }),
    },
  };
}

function hostedServer(
  attached: { server?: ProviderRegistry; host?: ExtensionHost },
  logged: string[],
): RondoServer {
  return createServer({
    name: 'hosted',
    version: '1.0.0',
    pageSize: 7,
    log: (_level, message) => logged.push(message),
  })
    .tool('open', { task: 'optional' }, () => text('open'))
    .tool('secret', { visible: () => false }, () => text('secret'))
    .use(lookingExtension(attached));
}

async function connect(server: RondoServer, era: 'legacy' | 'modern'): Promise<Client> {
  const endpoint = createEndpoint(server, { modern: modernEra(), legacy: legacyEra() });
  const client = new Client({
    transport: inMemoryTransport(endpoint),
    era: era === 'modern' ? '2026-07-28' : '2025-11-25',
  });
  clients.push(client);
  await client.connect();
  return client;
}

describe('the host an extension sees', () => {
  for (const era of ['legacy', 'modern'] as const) {
    it(`tells a method the server, its page size and the tools as the caller sees them (${era})`, async () => {
      const logged: string[] = [];
      const client = await connect(hostedServer({}, logged), era);
      expect(client.capabilities.extensions).toMatchObject({ 'com.example/host': { tools: true } });
      expect(await client.request('host/look', { name: 'open' })).toMatchObject({
        server: 'hosted',
        pageSize: 7,
        found: { name: 'open', task: 'optional' },
        callable: ['open', 'secret'],
      });
      // A tool hidden from the caller reads as one nobody has.
      expect(await client.request('host/look', { name: 'secret' })).toMatchObject({ found: null });
      expect(await client.request('host/look', { name: 'none' })).toMatchObject({ found: null });
      expect(logged).toEqual(expect.arrayContaining(['looked at open', 'looked at secret']));
    });
  }

  it('attaches with the server as a provider registry and the same host', async () => {
    const attached: { server?: ProviderRegistry; host?: ExtensionHost } = {};
    const server = hostedServer(attached, []);
    expect(attached.server).toBe(server);
    expect(attached.host?.info.name).toBe('hosted');
  });
});
