import { describe, expect, it } from 'vitest';
import { closeAll, openStates, sleep, useRedisServer } from './support/harness.js';

const RECORD = { principalId: 'alice', state: { protocolVersion: '2025-06-18', logLevel: 'info' } };

describe('sessions in Redis', () => {
  const redis = useRedisServer();

  it('finds on one process a session another saved, with its principal and state', async () => {
    const [one, two] = await openStates(redis().url, 2);
    await one!.sessions.save('s1', RECORD, 10_000);
    expect(await two!.sessions.load('s1', 10_000)).toEqual(RECORD);
    await one!.sessions.save('s2', { principalId: undefined, state: {} }, 10_000);
    expect(await two!.sessions.load('s2', 10_000)).toEqual({ principalId: undefined, state: {} });
    expect(await two!.sessions.load('never', 10_000)).toBeUndefined();
    await closeAll([one!, two!]);
  });

  it('forgets an idle session after its TTL, and a load restarts the TTL', async () => {
    const [state] = await openStates(redis().url, 1);
    await state!.sessions.save('idle', RECORD, 300);
    await state!.sessions.save('busy', RECORD, 300);
    for (let step = 0; step < 4; step += 1) {
      await sleep(150);
      expect(await state!.sessions.load('busy', 300)).toEqual(RECORD);
    }
    // 600 ms have passed: the idle one expired, the one loaded every 150 ms is still there.
    expect(await state!.sessions.load('idle', 300)).toBeUndefined();
    await closeAll([state!]);
  });

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
