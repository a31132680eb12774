import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Client, inMemoryTransport } from '@rondo/client';
import {
  ConfigurationError,
  createEndpoint,
  createServer,
  extensionMethod,
  text,
  type Extension,
  type RondoServer,
} from '@rondo/core';
import { legacyEra } from '@rondo/adapter-2025';
import { modernEra } from '@rondo/adapter-2026';
import { ErrorCode, McpError } from '@rondo/protocol';
import { MemoryConnection } from '@rondo/test-support/memoryConnection';

// The extension seam (issue 27, point 1): one value a server uses declares its capability on both
// eras' wires, adds methods to the eras it names, decorates descriptors and runs around calls.

const clients: Client[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
});

/** An extension of each kind of member, announcing different settings per era. */
function echoExtension(seen: string[]): Extension {
  return {
    id: 'com.example/echo',
    settings: (era) => (era === 'modern' ? { loud: true } : { loud: false }),
    methods: {
      'echo/say': extensionMethod({
        params: z.object({ words: z.string() }),
        eras: ['legacy', 'modern'],
        handle: async ({ words }, call) => ({ said: words, era: call.era }),
      }),
      'echo/modern': extensionMethod({
        params: z.object({}),
        eras: ['modern'],
        handle: async () => ({ only: 'modern' }),
      }),
    },
    describe: (kind, definition) =>
      kind === 'tool' ? { 'com.example/echo': (definition as { name: string }).name } : undefined,
    middleware: async (call, next) => {
      seen.push(call.method);
      return next();
    },
  };
}

async function connect(server: RondoServer, era: 'legacy' | 'modern'): Promise<Client> {
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
  return client;
}

function echoServer(seen: string[] = []): RondoServer {
  return createServer({ name: 'echo', version: '1.0.0', log: () => undefined })
    .tool('shout', { _meta: { own: 1 } }, () => text('HEY'))
    .use(echoExtension(seen));
}

describe('an extension on the seam', () => {
  for (const [era, loud] of [
    ['legacy', false],
    ['modern', true],
  ] as const) {
    it(`announces its settings under capabilities.extensions in the ${era} era`, async () => {
      const client = await connect(echoServer(), era);
      expect(client.era).toBe(era);
      expect(client.capabilities.extensions).toMatchObject({ 'com.example/echo': { loud } });
    });

    it(`serves its method with validated params in the ${era} era`, async () => {
      const client = await connect(echoServer(), era);
      expect(await client.request('echo/say', { words: 'hi' })).toMatchObject({ said: 'hi', era });
      await expect(client.request('echo/say', { words: 3 })).rejects.toMatchObject({
        code: ErrorCode.InvalidParams,
      });
    });

    it(`adds _meta to descriptors, keeping their own, in the ${era} era`, async () => {
      const client = await connect(echoServer(), era);
      const { tools } = await client.listTools();
      expect(tools[0]?._meta).toEqual({ own: 1, 'com.example/echo': 'shout' });
    });
  }

  it('leaves a method out of the eras it does not name (-32601)', async () => {
    const legacy = await connect(echoServer(), 'legacy');
    await expect(legacy.request('echo/modern', {})).rejects.toMatchObject({
      code: ErrorCode.MethodNotFound,
    });
    const modern = await connect(echoServer(), 'modern');
    expect(await modern.request('echo/modern', {})).toMatchObject({ only: 'modern' });
  });

  it('runs its middleware around calls of every method, its own included', async () => {
    const seen: string[] = [];
    const client = await connect(echoServer(seen), 'modern');
    await client.callTool('shout', {});
    await client.request('echo/say', { words: 'x' });
    expect(seen).toEqual(expect.arrayContaining(['tools/call', 'echo/say']));
  });

  it('answers a handler’s McpError as that error', async () => {
    const server = createServer({ name: 'e', version: '1', log: () => undefined }).use({
      id: 'com.example/fails',
      methods: {
        'fails/now': extensionMethod({
          params: z.object({}),
          eras: ['modern'],
          handle: () => Promise.reject(new McpError(ErrorCode.InvalidParams, 'no such thing')),
        }),
      },
    });
    const client = await connect(server, 'modern');
    await expect(client.request('fails/now', {})).rejects.toMatchObject({
      code: ErrorCode.InvalidParams,
      message: expect.stringContaining('no such thing') as unknown,
    });
  });

  it('announces an extension with no settings as {} (a one-line extension)', async () => {
    const server = createServer({ name: 'ui', version: '1', log: () => undefined });
    server.tool('t', {}, () => text('ok')).use({ id: 'io.modelcontextprotocol/ui' });
    const client = await connect(server, 'modern');
    expect(client.capabilities.extensions).toMatchObject({ 'io.modelcontextprotocol/ui': {} });
  });

  it('refuses a bad id, a taken id, and a method another extension serves', () => {
    const server = createServer({ name: 'x', version: '1', log: () => undefined });
    expect(() => server.use({ id: 'no-prefix' })).toThrow(ConfigurationError);
    server.use(echoExtension([]));
    expect(() => server.use({ id: 'com.example/echo' })).toThrow(/already in use/);
    const thief = { id: 'com.example/thief', methods: echoExtension([]).methods! };
    expect(() => server.use(thief)).toThrow(/echo\/say, which com.example\/echo already serves/);
  });

  it('may not replace a method of an era', async () => {
    const server = createServer({ name: 'x', version: '1', log: () => undefined }).use({
      id: 'com.example/steal',
      methods: {
        'tools/list': extensionMethod({
          params: z.object({}),
          eras: ['modern'],
          handle: async () => ({}),
        }),
      },
    });
    const connection = new MemoryConnection(createEndpoint(server, { modern: modernEra() }));
    expect(() => connection.send({ jsonrpc: '2.0', id: 1, method: 'server/discover' })).toThrow(
      /tools\/list, which the modern era already serves/,
    );
  });
});
