import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';
import { FIXTURE_MAIN, startGateway, writeConfig, type RunningGateway } from './support.js';

// Issue 43, done-when 4: the gateway publishes its Server Card beside the endpoint it serves and
// the host's catalog with one entry for it, at the path it was told to serve.

describe('rondo-gateway discovery', () => {
  let gateway: RunningGateway;
  beforeAll(async () => {
    const config = writeConfig({ fixture: { command: process.execPath, args: [FIXTURE_MAIN] } });
    gateway = await startGateway(config, ['--path', '/tools/mcp']);
  }, scaled(90_000));
  afterAll(async () => gateway?.close());

  it('lists its served endpoint in the catalog, whose entry leads to the card', async () => {
    const origin = gateway.url.origin;
    const catalog = await fetch(`${origin}/.well-known/mcp/catalog.json`);
    expect(catalog.status).toBe(200);
    const { entries } = (await catalog.json()) as { entries: { url: string }[] };
    expect(entries).toEqual([
      {
        identifier: `urn:air:${gateway.url.hostname}:rondo-gateway`,
        displayName: 'rondo-gateway',
        type: 'application/mcp-server-card+json',
        url: `${origin}/tools/mcp/server-card`,
      },
    ]);
    const card = await fetch(entries[0]!.url);
    expect(card.headers.get('content-type')).toBe('application/mcp-server-card+json');
    expect(await card.json()).toMatchObject({
      name: 'rondo-gateway',
      remotes: [{ type: 'streamable-http', url: `${origin}/tools/mcp` }],
    });
  });
});
