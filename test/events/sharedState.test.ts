import { afterEach, describe, expect, it } from 'vitest';
import { Client, inMemoryTransport } from '@rondo/client';
import { createServer } from '@rondo/server';
import { composeEndpoint } from '@rondo/server/endpoint';
import { events, MemoryOccurrenceLog, type ServerEvents } from '@rondo/events';
import type { RedisState } from '@rondo/redis';
import { z } from 'zod';
import { closeAll, openStates, useRedisServer } from '../../packages/redis/test/support/harness.js';

// Issue 42: `events()` keeps its occurrences and webhook subscriptions in the server's shared state
// (`@rondo/redis`) as `tasks()` keeps its tasks there, unless its options name others: a cursor
// taken on one replica resumes on another with nothing else configured but the shared keys.

const redis = useRedisServer();
const KEYS = [{ id: 'k1', secret: 'shared-events-test-key-0123456789abcdef' }];

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function replica(state: RedisState, served: ServerEvents) {
  const server = createServer({ name: 'replica', version: '1.0.0', shared: state });
  server.use(served);
  const client = new Client({ transport: inMemoryTransport(composeEndpoint(server)) });
  await client.connect();
  closers.push(() => client.close());
  return client;
}

function declared(options: Parameters<typeof events>[0] = {}): ServerEvents {
  return events({ cursors: { keys: KEYS }, ...options }).event('build_finished', {
    description: 'A build finished',
    payload: z.object({ branch: z.string() }),
  });
}

describe('events() on a shared state', () => {
  it('keeps occurrences in the shared log: a cursor from replica A resumes on replica B', async () => {
    const states = await openStates(redis().url, 2);
    closers.push(() => closeAll(states));
    const [a, b] = [declared(), declared()];
    const clientA = await replica(states[0]!, a);
    const clientB = await replica(states[1]!, b);
    const start = await clientA.serverEvents.poll({ name: 'build_finished', cursor: null });
    await a.emit('build_finished', { branch: 'main' });
    await b.emit('build_finished', { branch: 'dev' });
    const onB = await clientB.serverEvents.poll({ name: 'build_finished', cursor: start.cursor });
    expect(onB.events.map((event) => event.data.branch)).toEqual(['main', 'dev']);
    expect(onB.truncated).toBe(false);
  });

  it('leaves a log the options name alone', async () => {
    const states = await openStates(redis().url, 2);
    closers.push(() => closeAll(states));
    const own = declared({ log: new MemoryOccurrenceLog() });
    const clientA = await replica(states[0]!, own);
    const clientB = await replica(states[1]!, declared());
    const start = await clientA.serverEvents.poll({ name: 'build_finished', cursor: null });
    await own.emit('build_finished', { branch: 'main' });
    const onA = await clientA.serverEvents.poll({ name: 'build_finished', cursor: start.cursor });
    expect(onA.events.map((event) => event.data.branch)).toEqual(['main']);
    // Replica B reads the shared log, which the first replica's own log never reached.
    const fromNow = await clientB.serverEvents.poll({ name: 'build_finished', cursor: null });
    const onB = await clientB.serverEvents.poll({ name: 'build_finished', cursor: fromNow.cursor });
    expect(onB.events).toEqual([]);
  });
});
