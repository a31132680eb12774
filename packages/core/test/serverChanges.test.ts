import { runtimeOf } from '@rondo/core/internal';
import { expect, it } from 'vitest';
import {
  createServer,
  type ChangeBus,
  type ProviderChange,
  type PublishedChange,
  type ServerLogMessage,
  type SharedState,
} from '@rondo/core';

/** A bus between servers of one test: what one publishes, all hear (as Redis pub/sub does). */
function localBus(): ChangeBus & { published: ProviderChange[] } {
  const listeners = new Set<(published: PublishedChange) => void>();
  const published: ProviderChange[] = [];
  let next = 0;
  return {
    published,
    async publish(change) {
      published.push(change);
      const id = `bus-${(next += 1)}`;
      for (const listener of listeners) listener({ id, change });
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

function sharedWith(changes: ChangeBus): SharedState {
  // Only the change bus matters here; the other members are never touched by these servers.
  return { changes } as unknown as SharedState;
}

it('tells its own listeners each change with an id when nothing is shared', () => {
  const server = createServer({ name: 'one', version: '1', log: () => {} });
  const heard: [ProviderChange, string][] = [];
  runtimeOf(server).onChange((change, id) => heard.push([change, id]));
  server.resourceUpdated('a://1');
  server.resourceUpdated('a://2');
  expect(heard.map(([change]) => change)).toEqual([
    { kind: 'resource', uri: 'a://1' },
    { kind: 'resource', uri: 'a://2' },
  ]);
  expect(new Set(heard.map(([, id]) => id)).size).toBe(2);
});

it('publishes changes on the shared bus, which every server hears with one id', async () => {
  const bus = localBus();
  const first = createServer({ name: 'a', version: '1', log: () => {}, shared: sharedWith(bus) });
  const second = createServer({ name: 'b', version: '1', log: () => {}, shared: sharedWith(bus) });
  const heardFirst: string[] = [];
  const heardSecond: string[] = [];
  runtimeOf(first).onChange((_change, id) => heardFirst.push(id));
  runtimeOf(second).onChange((_change, id) => heardSecond.push(id));
  first.resourceUpdated('a://1');
  await Promise.resolve();
  expect(bus.published).toEqual([{ kind: 'resource', uri: 'a://1' }]);
  expect(heardFirst).toEqual(['bus-1']);
  expect(heardSecond).toEqual(['bus-1']);
  await first.close();
  second.resourceUpdated('a://2');
  await Promise.resolve();
  expect(heardFirst).toEqual(['bus-1']);
  expect(heardSecond).toEqual(['bus-1', 'bus-2']);
});

it('logs a change it could not publish and goes on serving', async () => {
  const warnings: string[] = [];
  const failing: ChangeBus = {
    publish: () => Promise.reject(new Error('Redis is unreachable')),
    subscribe: () => () => undefined,
  };
  const server = createServer({
    name: 'a',
    version: '1',
    log: (level, message) => warnings.push(`${level}: ${message}`),
    shared: sharedWith(failing),
  });
  server.resourceUpdated('a://1');
  await new Promise((resolve) => setTimeout(resolve, 0));
  expect(warnings).toEqual([
    'warning: a resource change was not published to the other processes: Redis is unreachable',
  ]);
});

it('tells its log listeners each broadcastLog message, in this process only, until they stop', () => {
  const bus = localBus();
  const server = createServer({
    name: 'one',
    version: '1',
    log: () => {},
    shared: sharedWith(bus),
  });
  const heard: ServerLogMessage[] = [];
  const stop = runtimeOf(server).onLog((message) => heard.push(message));
  server.broadcastLog('error', 'reload failed', 'rondo-logtalk');
  server.broadcastLog('info', { count: 2 });
  stop();
  server.broadcastLog('error', 'not heard');
  expect(heard).toEqual([
    { level: 'error', data: 'reload failed', logger: 'rondo-logtalk' },
    { level: 'info', data: { count: 2 } },
  ]);
  expect(bus.published).toEqual([]);
});
