import { describe, expect, it } from 'vitest';
import {
  MemoryChangeBus,
  MemorySessionRelay,
  MemorySessionStore,
  type PublishedChange,
  type SessionRecord,
} from '@rondo/core';

// The memory defaults' own rules; what every store of a seam keeps is in the contract suites
// (@rondo/test-support, *Contract.ts), run against these and Redis in packages/redis/test.

const RECORD: SessionRecord = { principalId: undefined, state: {} };

describe('the memory session store', () => {
  it('keeps at most maxSessions records, dropping the least recently used', () => {
    const store = new MemorySessionStore({ maxSessions: 3 });
    for (const id of ['a', 'b', 'c']) store.save(id, RECORD, 60_000);
    expect(store.load('a', 60_000)).toBe(RECORD);
    store.save('d', RECORD, 60_000);
    expect(store.size).toBe(3);
    expect(store.load('b', 60_000)).toBeUndefined();
    for (const id of ['a', 'c', 'd']) expect(store.load(id, 60_000)).toBe(RECORD);
  });

  it('answers at once, and sweeps expired records as it saves new ones', () => {
    let now = 0;
    const store = new MemorySessionStore({ now: () => now });
    for (let n = 0; n < 10; n += 1) store.save(`old-${n}`, RECORD, 1_000);
    now = 5_000;
    for (let n = 0; n < 5; n += 1) store.save(`new-${n}`, RECORD, 1_000);
    // Each save looks at the two least recently used records: the ten expired ones are gone.
    expect(store.size).toBe(5);
    expect(store.load('new-0', 1_000)).toBe(RECORD);
    expect(store.scope).toBe('process');
  });
});

describe('the memory change bus', () => {
  it('delivers a change before publish returns, to each subscription', () => {
    const bus = new MemoryChangeBus();
    const heard: PublishedChange[] = [];
    const listener = (published: PublishedChange) => heard.push(published);
    bus.subscribe(listener);
    const stop = bus.subscribe(listener);
    void bus.publish({ kind: 'tools' });
    expect(heard).toHaveLength(2);
    stop();
    void bus.publish({ kind: 'prompts' });
    expect(heard.map((published) => published.change.kind)).toEqual(['tools', 'tools', 'prompts']);
  });
});

describe('the memory session relay', () => {
  it('reaches nobody alone, and no peer once that peer closed', async () => {
    const alone = new MemorySessionRelay();
    const heard: string[] = [];
    alone.receive((sessionId) => heard.push(sessionId));
    await alone.forward('s', { jsonrpc: '2.0', method: 'notifications/x' });
    const peer = alone.peer();
    peer.receive((sessionId) => heard.push(`peer:${sessionId}`));
    peer.close();
    await alone.forward('t', { jsonrpc: '2.0', method: 'notifications/x' });
    expect(heard).toEqual([]);
  });
});
