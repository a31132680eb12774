import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';
import { startDemo, type RunningDemo } from './demoProcess.js';

// Issue 43, done-when 4: the demo serves its own Server Card (at /mcp/server-card, beside its
// endpoint) and the host's catalog listing it, as a showcase should.

describe('the demo publishes its Server Card and catalog', () => {
  let demo: RunningDemo;
  beforeAll(async () => {
    demo = await startDemo(['--no-prolog']);
  }, scaled(90_000));
  afterAll(async () => demo?.stop());

  it('serves its card at /mcp/server-card and lists it in /.well-known/mcp/catalog.json', async () => {
    const card = await fetch(`${demo.url}/mcp/server-card`, {
      headers: { accept: 'application/mcp-server-card+json' },
    });
    expect(card.status).toBe(200);
    expect(card.headers.get('content-type')).toBe('application/mcp-server-card+json');
    expect(card.headers.get('access-control-allow-origin')).toBe('*');
    expect(await card.json()).toMatchObject({
      name: 'rondo-demo',
      title: 'Rondo demo',
      remotes: [{ type: 'streamable-http', url: `${demo.url}/mcp` }],
    });
    const catalog = await fetch(`${demo.url}/.well-known/mcp/catalog.json`);
    expect(catalog.status).toBe(200);
    expect(await catalog.json()).toEqual({
      specVersion: 'draft',
      entries: [
        {
          identifier: `urn:air:${new URL(demo.url).hostname}:rondo-demo`,
          displayName: 'Rondo demo',
          type: 'application/mcp-server-card+json',
          url: `${demo.url}/mcp/server-card`,
        },
      ],
    });
  });
});
