import { fileURLToPath } from 'node:url';
import { Client, inMemoryTransport } from '@rondo/client';
import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config.js';
import { createGateway, type Gateway } from '../src/gateway.js';

const EXAMPLES = fileURLToPath(
  new URL('../../../packages/logtalk-bridge/examples/', import.meta.url),
);
const FIXTURE_DIR = fileURLToPath(new URL('../../conformance-fixture/', import.meta.url));

let gateway: Gateway | undefined;
afterEach(async () => {
  await gateway?.server.close();
  gateway = undefined;
});

describe('createGateway', () => {
  it('hosts a Prolog provider in-process beside a proxied server, each under its namespace', async () => {
    const entries = parseConfig(
      JSON.stringify({
        mcpServers: {
          birds: { prolog: 'birds.pl' },
          fixture: {
            command: process.execPath,
            args: ['dist/main.js'],
            cwd: FIXTURE_DIR,
            include: ['test_simple_text'],
          },
        },
      }),
      'servers.json',
      EXAMPLES,
    );
    gateway = await createGateway(entries, { log: () => undefined });
    const client = new Client({
      transport: inMemoryTransport(gateway.endpoint),
      era: '2025-11-25',
    });
    await client.connect();
    // The gateway serves at once; the proxied upstream's tools join once it is connected.
    await expect
      .poll(async () => (await client.listAllTools()).map((tool) => tool.name).sort(), {
        timeout: 30_000,
      })
      .toEqual(['birds_identify_bird', 'fixture_test_simple_text']);
    const result = await client.callTool('fixture_test_simple_text');
    expect(result.content[0]).toMatchObject({ type: 'text' });
    await client.close();
  });

  it('serves a name a removed entry held from the entry it shadowed, after a reload', async () => {
    const both = {
      first: { prolog: 'birds.pl', namespace: '' },
      second: { prolog: 'birds.pl', namespace: '' },
    };
    const parse = (mcpServers: object) =>
      parseConfig(JSON.stringify({ mcpServers }), 'servers.json', EXAMPLES);
    const logged: string[] = [];
    gateway = await createGateway(parse(both), { log: (line) => logged.push(line) });
    const client = new Client({
      transport: inMemoryTransport(gateway.endpoint),
      era: '2026-07-28',
    });
    await client.connect();
    const names = async () => (await client.listAllTools()).map((tool) => tool.name);
    expect(await names()).toEqual(['identify_bird']);
    expect(logged).toContain(
      'tool "identify_bird" of entry "second" left out: entry "first" offers it too (give one of them a namespace, or rename or exclude it)',
    );

    const outcome = await gateway.reload(parse({ second: both.second }));
    expect(outcome).toMatchObject({ removed: ['first'], failed: [] });
    await expect.poll(names).toEqual(['identify_bird']);
    await client.close();
  });
});
