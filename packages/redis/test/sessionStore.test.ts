import { describe, expect, it } from 'vitest';
import { MemorySessionStore } from '@rondo/core';
import { describeSessionStoreContract } from '@rondo/test-support/sessionStoreContract';
import { closeAll, openStates, useRedisServer } from './support/harness.js';

const RECORD = { principalId: 'alice', state: { protocolVersion: '2025-06-18', logLevel: 'info' } };

const redis = useRedisServer();

describeSessionStoreContract('in memory', async (count) => {
  const store = new MemorySessionStore();
  return { processes: Array.from({ length: count }, () => store), close: async () => {} };
});

describeSessionStoreContract('in Redis', async (count) => {
  const states = await openStates(redis().url, count);
  return { processes: states.map((state) => state.sessions), close: () => closeAll(states) };
});

describe('sessions in Redis', () => {
  it('loads in one round trip', async () => {
    const [state] = await openStates(redis().url, 1);
    await state!.sessions.save('s', RECORD, 10_000);
    const before = state!.stats().commands;
    await state!.sessions.load('s', 10_000);
    expect(state!.stats().commands - before).toBe(1);
    await closeAll([state!]);
  });

  it('deletes a session with its event streams, leaving other sessions', async () => {
    const [one, two] = await openStates(redis().url, 2);
    await one!.sessions.save('gone', RECORD, 10_000);
    await one!.sessions.save('kept', RECORD, 10_000);
    const first = await one!.events.append('gone.get', { jsonrpc: '2.0', method: 'a' });
    await one!.events.append('gone.get', { jsonrpc: '2.0', method: 'b' });
    await one!.events.append('gone.post-1', { jsonrpc: '2.0', method: 'c' });
    const other = await one!.events.append('kept.get', { jsonrpc: '2.0', method: 'd' });
    await one!.events.append('kept.get', { jsonrpc: '2.0', method: 'e' });
    expect((await two!.events.replayAfter(first!))?.events).toHaveLength(1);
    await two!.sessions.delete('gone');
    expect(await one!.sessions.load('gone', 10_000)).toBeUndefined();
    expect(await one!.events.replayAfter(first!)).toBeUndefined();
    expect(await one!.sessions.load('kept', 10_000)).toEqual(RECORD);
    expect((await one!.events.replayAfter(other!))?.events).toHaveLength(1);
    await closeAll([one!, two!]);
  });
});
