import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, requireScopes } from '@rondo/core';
import { contents, message, messages, text, textContent } from '@rondo/protocol';
import { serveHttp, type HttpServerHandle, type VerifiedToken } from '@rondo/transport-http';
import { ERAS, EraClient } from '../contract/support/eras.js';
import { HttpDriver } from '../contract/support/transports.js';
import { bothEras, driverWithToken } from './middlewareServer.js';

/** A server whose `admin_*` items only principals with the `admin` scope may see. */
function visibilityServer() {
  const admin = requireScopes('admin');
  return createServer({
    name: 'visibility',
    version: '1.0.0',
    log: () => undefined,
    // Shared caching by default, so that a list varying by caller must override it.
    defaultCachePolicy: { ttlMs: 60_000, cacheScope: 'public' },
  })
    .tool('public_echo', {}, () => text('public'))
    .tool('admin_reset', { visible: admin }, () => text('reset done'))
    .prompt('admin_prompt', { visible: admin }, () => messages([message('user', 'hi')]))
    .resource('memo://admin', { name: 'admin memo', visible: admin }, (uri) =>
      contents([textContent(uri, 'text/plain', 'secret')]),
    )
    .resource('memo://public', { name: 'public memo' }, (uri) =>
      contents([textContent(uri, 'text/plain', 'hello')]),
    );
}

const TOKENS: Record<string, Omit<VerifiedToken, 'audience'>> = {
  alice: { subject: 'alice', scopes: ['mcp', 'admin'] },
  bob: { subject: 'bob', scopes: ['mcp'] },
};

describe('per-caller visibility over HTTP with bearer tokens', () => {
  let handle: HttpServerHandle;
  let resource = '';
  beforeAll(async () => {
    handle = await serveHttp(bothEras(visibilityServer()), {
      port: 0,
      auth: {
        get resource() {
          return resource;
        },
        authorizationServers: ['https://auth.example'],
        verifyToken: (token) => {
          const known = TOKENS[token];
          return known && { ...known, audience: resource };
        },
      },
    });
    resource = handle.url;
  });
  afterAll(() => handle.close());

  for (const era of ERAS) {
    describe(`a ${era} client`, () => {
      const clients: Record<string, EraClient> = {};
      beforeAll(async () => {
        for (const who of ['alice', 'bob']) {
          const driver = new HttpDriver(handle.url);
          const client = new EraClient(era, driverWithToken(driver, who));
          await client.start();
          clients[who] = client;
        }
      });
      afterAll(async () => {
        for (const client of Object.values(clients)) await client.driver.close();
      });

      it('shows each principal the tools it may see', async () => {
        const names = async (who: string) =>
          ((await clients[who]!.call('tools/list')).tools as { name: string }[]).map((t) => t.name);
        expect(await names('alice')).toEqual(['public_echo', 'admin_reset']);
        expect(await names('bob')).toEqual(['public_echo']);
      });

      it('answers a hidden tool exactly as an unknown one', async () => {
        const bob = clients.bob!;
        const hidden = await bob.request('tools/call', { name: 'admin_reset' });
        const unknown = await bob.request('tools/call', { name: 'no_such_tool' });
        expect(hidden.error?.code).toBe(-32602);
        expect(normalise(hidden.error, 'admin_reset')).toEqual(
          normalise(unknown.error, 'no_such_tool'),
        );
        const allowed = await clients.alice!.call('tools/call', { name: 'admin_reset' });
        expect(allowed.content).toEqual([{ type: 'text', text: 'reset done' }]);
      });

      it('hides prompts and resources alike', async () => {
        const bob = clients.bob!;
        expect((await bob.call('prompts/list')).prompts).toEqual([]);
        const prompt = await bob.request('prompts/get', { name: 'admin_prompt' });
        const noPrompt = await bob.request('prompts/get', { name: 'nothing' });
        expect(normalise(prompt.error, 'admin_prompt')).toEqual(
          normalise(noPrompt.error, 'nothing'),
        );
        const uris = ((await bob.call('resources/list')).resources as { uri: string }[]).map(
          (r) => r.uri,
        );
        expect(uris).toEqual(['memo://public']);
        const read = await bob.request('resources/read', { uri: 'memo://admin' });
        const missing = await bob.request('resources/read', { uri: 'memo://none' });
        expect(normalise(read.error, 'memo://admin')).toEqual(
          normalise(missing.error, 'memo://none'),
        );
      });

      if (era === 'modern') {
        it('marks lists that vary by caller as private to the cache', async () => {
          const list = await clients.bob!.call('tools/list');
          expect(list).toMatchObject({ ttlMs: 60_000, cacheScope: 'private' });
          const discover = await clients.bob!.call('server/discover');
          expect(discover.cacheScope).toBe('public');
        });
      }
    });
  }
});

/** An error with the name it was about replaced, to compare two refusals. */
function normalise(error: unknown, name: string): unknown {
  return JSON.parse(JSON.stringify(error).replaceAll(name, '<name>'));
}
