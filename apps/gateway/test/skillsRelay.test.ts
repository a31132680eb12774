import { Client, inMemoryTransport } from '@rondo/client';
import { ProxyProvider } from '@rondo/proxy';
import { createServer, serve, text } from '@rondo/server';
import { skills } from '@rondo/skills';
import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config.js';
import { createGateway } from '../src/gateway.js';

// Issue 40: the gateway announces the Skills extension only while an upstream serving it is
// connected, so a gateway of upstreams without skills shows its callers nothing new.

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** A real upstream over HTTP, with one skill or none. */
async function upstream(withSkills: boolean): Promise<string> {
  const server = createServer({ name: 'upstream', version: '1.0.0', log: () => undefined }).tool(
    'noop',
    {},
    () => text('ok'),
  );
  if (withSkills) {
    server.use(
      skills({ skills: [{ name: 'notes', description: 'Take notes.', instructions: '# Notes' }] }),
    );
  }
  const running = await serve(server, { transport: 'http', port: 0, quiet: true });
  closers.push(() => running.close());
  return running.url;
}

/** A client of a gateway over `mcpServers`, once every upstream is connected. */
async function callerOf(mcpServers: object, era: '2026-07-28' | '2025-11-25') {
  const entries = parseConfig(JSON.stringify({ mcpServers }), 'servers.json', '.');
  const gateway = await createGateway(entries, { log: () => undefined });
  closers.push(() => gateway.server.close());
  for (const provider of gateway.providers.values())
    if (provider instanceof ProxyProvider) await provider.upstream.start();
  const client = new Client({ transport: inMemoryTransport(gateway.endpoint), era });
  await client.connect();
  closers.push(() => client.close());
  return client;
}

describe.each(['2026-07-28', '2025-11-25'] as const)(
  'the skills a gateway announces (%s)',
  (era) => {
    it('announces none without an upstream serving skills', async () => {
      const client = await callerOf({ plain: { url: await upstream(false) } }, era);
      expect(client.capabilities.extensions?.['io.modelcontextprotocol/skills']).toBeUndefined();
      expect((await client.listAllTools()).map((tool) => tool.name)).toEqual(['plain_noop']);
    });

    it('announces the extension, without directoryRead, when an upstream serves skills', async () => {
      const client = await callerOf(
        { plain: { url: await upstream(false) }, skilled: { url: await upstream(true) } },
        era,
      );
      expect(client.capabilities.extensions?.['io.modelcontextprotocol/skills']).toEqual({});
      await expect
        .poll(async () => (await client.skills.listAll()).map((s) => s.uri))
        .toEqual(['skill://notes/SKILL.md']);
      await expect(client.skills.readDirectory('skill://notes')).rejects.toThrow(/directoryRead/);
    });
  },
);
