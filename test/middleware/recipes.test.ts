import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type RondoServer } from '@rondo/core';
import { text } from '@rondo/protocol';
import { serveHttp, type HttpServerHandle } from '@rondo/transport-http';
import { requestLog, type CallRecord } from '../../packages/core/examples/middleware/requestLog.js';
import { MemoryRateLimitStore, RATE_LIMITED, rateLimit } from '@rondo/policies';
import { toolAllowList } from '../../packages/core/examples/middleware/toolAllowList.js';
import { ERAS, EraClient, type EraName } from '../contract/support/eras.js';
import { HttpDriver } from '../contract/support/transports.js';
import { bothEras, driverWithToken, serveAndConnect } from './middlewareServer.js';

const recipes = fileURLToPath(new URL('../../packages/core/examples/middleware/', import.meta.url));
const guide = fileURLToPath(new URL('../../docs/middleware.md', import.meta.url));

function tools(): RondoServer {
  return createServer({ name: 'recipes', version: '1.0.0', log: () => undefined })
    .tool('search', {}, () => text('found'))
    .tool('deploy', {}, () => text('deployed'));
}

/** Serves `server` on HTTP with bearer tokens naming principals (any token is its own subject). */
async function withPrincipals(server: RondoServer): Promise<HttpServerHandle> {
  let resource = '';
  const handle = await serveHttp(bothEras(server), {
    port: 0,
    auth: {
      get resource() {
        return resource;
      },
      authorizationServers: ['https://auth.example'],
      verifyToken: (token) => ({ subject: token, scopes: [], audience: resource }),
    },
  });
  resource = handle.url;
  return handle;
}

async function clientAs(handle: HttpServerHandle, era: EraName, who: string): Promise<EraClient> {
  const client = new EraClient(era, driverWithToken(new HttpDriver(handle.url), who));
  await client.start();
  return client;
}

describe('the middleware recipes of docs/middleware.md', () => {
  it('are the example files, word for word', () => {
    const text = readFileSync(guide, 'utf8');
    for (const file of ['requestLog.ts', 'toolAllowList.ts']) {
      expect(text).toContain(readFileSync(recipes + file, 'utf8').trim());
    }
  });

  for (const era of ERAS) {
    it(`request logging records every ${era} call with its outcome`, async () => {
      const records: CallRecord[] = [];
      const served = await serveAndConnect(
        bothEras(tools().use(requestLog((r) => records.push(r)))),
        'stdio',
      );
      try {
        const client = new EraClient(era, served.driver);
        await client.start();
        await client.call('tools/call', { name: 'search' });
        await client.request('tools/call', { name: 'missing' });
        const calls = records.filter((r) => r.method === 'tools/call');
        expect(calls.map((r) => [r.era, r.outcome])).toEqual([
          [era, 'ok'],
          [era, 'error'],
        ]);
        expect(calls.every((r) => r.ms >= 0 && r.round === 1)).toBe(true);
      } finally {
        await served.close();
      }
    });
  }

  describe('over HTTP with principals', () => {
    let clock = 0;
    let limited: HttpServerHandle;
    let allowed: HttpServerHandle;
    beforeAll(async () => {
      limited = await withPrincipals(
        tools().use(
          rateLimit({
            limit: 2,
            windowMs: 1000,
            store: new MemoryRateLimitStore({ now: () => clock }),
          }),
        ),
      );
      allowed = await withPrincipals(
        tools().use(toolAllowList((p) => (p?.id === 'ops' ? ['search', 'deploy'] : ['search']))),
      );
    });
    afterAll(async () => {
      await limited.close();
      await allowed.close();
    });

    for (const era of ERAS) {
      it(`rate limits each ${era} principal on its own (the built-in that replaced the recipe)`, async () => {
        clock = 0;
        const alice = await clientAs(limited, era, `alice-${era}`);
        const bob = await clientAs(limited, era, `bob-${era}`);
        const search = () => alice.request('tools/call', { name: 'search' });
        // The handshake of the legacy era is a call too.
        const allowance = era === 'legacy' ? 1 : 2;
        for (let i = 0; i < allowance; i++) expect((await search()).result).toBeDefined();
        const refused = await search();
        // A token bucket of 2 per second: one token comes back every 500 ms.
        expect(refused.error).toMatchObject({ code: RATE_LIMITED, data: { retryAfterMs: 500 } });
        expect((await bob.request('tools/call', { name: 'search' })).result).toBeDefined();
        clock = 1000;
        expect((await search()).result).toBeDefined();
        await alice.driver.close();
        await bob.driver.close();
      });

      it(`allows each ${era} principal only its tools`, async () => {
        const ops = await clientAs(allowed, era, 'ops');
        const guest = await clientAs(allowed, era, 'guest');
        const names = async (client: EraClient) =>
          ((await client.call('tools/list')).tools as { name: string }[]).map((t) => t.name);
        expect(await names(ops)).toEqual(['search', 'deploy']);
        expect(await names(guest)).toEqual(['search']);
        expect((await guest.request('tools/call', { name: 'deploy' })).error).toMatchObject({
          code: -32602,
          message: 'Unknown tool: deploy',
        });
        expect((await ops.call('tools/call', { name: 'deploy' })).content).toEqual([
          { type: 'text', text: 'deployed' },
        ]);
        await ops.driver.close();
        await guest.driver.close();
      });
    }
  });
});
