import { afterEach, describe, expect, it } from 'vitest';
import { contents, text, textContent, type RondoServer } from '@rondo/server';
import { MemoryResponseCache, responseCache } from '../src/index.js';
import { startPolicyServer, type PolicyServer } from './support.js';

let running: PolicyServer | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

/** A server whose handlers count their runs, with the cache in front. */
function counted(store = new MemoryResponseCache()) {
  const runs = { lookup: 0, write: 0, read: 0, page: 0 };
  let version = 1;
  const build = (server: RondoServer) => {
    server
      .use(responseCache({ server, store, ttlMs: 60_000 }))
      .tool('lookup', { annotations: { readOnlyHint: true } }, (args, ctx) => {
        runs.lookup += 1;
        return text(`${ctx.principal?.id}:${JSON.stringify(args)}:${runs.lookup}`);
      })
      .tool('write', {}, () => {
        runs.write += 1;
        return text(`w${runs.write}`);
      })
      .resource('doc://a', { name: 'a' }, (uri) => {
        runs.read += 1;
        return contents([textContent(uri, 'text/plain', `v${version}`)]);
      });
  };
  return { runs, build, bump: () => (version += 1), store };
}

describe.each(['2026-07-28', '2025-11-25'] as const)('responseCache (%s)', (era) => {
  it('answers a read-only tool from the cache per principal and arguments; others always run', async () => {
    const fixture = counted();
    running = await startPolicyServer(fixture.build);
    const ada = await running.client('ada', era);
    const bob = await running.client('bob', era);
    const first = await ada.callTool('lookup', { q: 1 });
    expect((await ada.callTool('lookup', { q: 1 })).content).toEqual(first.content);
    expect(fixture.runs.lookup).toBe(1);
    await ada.callTool('lookup', { q: 2 });
    const bobs = await bob.callTool('lookup', { q: 1 });
    expect(bobs.content[0]).toMatchObject({ text: expect.stringMatching(/^bob:/) as unknown });
    expect(fixture.runs.lookup).toBe(3);
    await ada.callTool('write');
    await ada.callTool('write');
    expect(fixture.runs.write).toBe(2);
  });

  it('drops a resource read when the resource is updated, and tool answers when the tools change', async () => {
    const fixture = counted();
    running = await startPolicyServer(fixture.build);
    const ada = await running.client('ada', era);
    expect((await ada.readResource('doc://a')).contents[0]).toMatchObject({ text: 'v1' });
    expect((await ada.readResource('doc://a')).contents[0]).toMatchObject({ text: 'v1' });
    expect(fixture.runs.read).toBe(1);
    fixture.bump();
    running.server.resourceUpdated('doc://a');
    await expect.poll(() => fixture.store.size).toBe(0);
    expect((await ada.readResource('doc://a')).contents[0]).toMatchObject({ text: 'v2' });
    expect(fixture.runs.read).toBe(2);

    await ada.callTool('lookup', {});
    running.server.tool('extra', {}, () => text('x'));
    await expect.poll(async () => (await ada.listTools()).tools.length).toBe(3);
    await ada.callTool('lookup', {});
    expect(fixture.runs.lookup).toBe(2);
  });
});

describe('responseCache sharing', () => {
  it('keeps a shared item once for every caller, a step-up (new scopes) gets its own answer', async () => {
    let runs = 0;
    running = await startPolicyServer((server) =>
      server
        .use(responseCache({ server, shared: (target) => target.name === 'weather' }))
        .tool('weather', { annotations: { readOnlyHint: true } }, () =>
          text(`sunny ${(runs += 1)}`),
        )
        .tool('mine', { annotations: { idempotentHint: true } }, (_a, ctx) =>
          text(`${ctx.principal?.id} ${(runs += 1)}`),
        ),
    );
    const ada = await running.client('ada');
    const bob = await running.client('bob');
    const adaWide = await running.client('ada:admin');
    expect((await ada.callTool('weather')).content).toEqual(
      (await bob.callTool('weather')).content,
    );
    expect(runs).toBe(1);
    await ada.callTool('mine');
    await adaWide.callTool('mine');
    expect(runs).toBe(3);
  });

  it('MemoryResponseCache is bounded in entries and drops a whole group at once', () => {
    const cache = new MemoryResponseCache({ maxEntries: 2 });
    cache.set('g', 'a', '1', 1000);
    cache.set('g', 'b', '2', 1000);
    cache.set('h', 'c', '3', 1000);
    expect(cache.size).toBe(2);
    expect(cache.get('g', 'a')).toBeUndefined();
    cache.drop('g');
    expect(cache.get('g', 'b')).toBeUndefined();
    expect(cache.get('h', 'c')).toBe('3');
  });
});
