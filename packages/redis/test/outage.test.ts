import { describe, expect, it, vi } from 'vitest';
import { SharedStateError } from '@rondo/core';
import { createRedisState } from '@rondo/redis';
import { startRedisServer } from '@rondo/test-support/redisServer';
import { closeAll, openStates, redisCommand, useRedisServer } from './support/harness.js';
import { scaled } from '@rondo/test-support/timeFactor';

describe('Redis down', () => {
  const redis = useRedisServer();

  it('fails every operation within 2 s with a SharedStateError naming Redis, then recovers', async () => {
    const server = await startRedisServer();
    const [state] = await openStates(server.url, 1);
    await state!.sessions.save('s', { principalId: undefined, state: {} }, 60_000);
    await server.stop();
    const operations: (() => Promise<unknown>)[] = [
      async () => state!.sessions.load('s', 60_000),
      async () => state!.sessions.save('s', { principalId: undefined, state: {} }, 60_000),
      async () => state!.sessions.delete('s'),
      async () => state!.events.append('s.get', undefined),
      async () => state!.events.replayAfter('s.get:1-0'),
      () => state!.changes.publish({ kind: 'tools' }),
      () => state!.relay.forward('s', { jsonrpc: '2.0', method: 'n' }),
      () => state!.tasks.create({ owner: undefined, ttlMs: 1_000, pollIntervalMs: 100 }),
      () => state!.tasks.requestCancel('t'),
    ];
    for (const operation of operations) {
      const started = Date.now();
      const error = await operation().then(
        () => undefined,
        (failure: unknown) => failure,
      );
      expect(error).toBeInstanceOf(SharedStateError);
      expect((error as Error).message).toContain(`Redis at redis://127.0.0.1:${server.port}`);
      expect(Date.now() - started).toBeLessThan(scaled(2_000));
    }
    await server.restart();
    await vi.waitFor(async () => expect(await state!.sessions.load('s', 60_000)).toBeUndefined(), {
      timeout: 5_000,
      interval: 100,
    });
    await state!.sessions.save('s', { principalId: 'a', state: {} }, 60_000);
    expect((await state!.sessions.load('s', 60_000))?.principalId).toBe('a');
    expect(state!.reported.some((error) => /connection was lost/.test(error.message))).toBe(true);
    await state!.close();
    await server.stop();
  });

  it('fails a command within the command timeout when Redis stops answering', async () => {
    const [state] = await openStates(redis().url, 1, { commandTimeoutMs: 300 });
    const pid = Number(
      /process_id:(\d+)/.exec(String(await redisCommand(redis().url, ['INFO', 'server'])))?.[1],
    );
    process.kill(pid, 'SIGSTOP');
    try {
      const started = Date.now();
      await expect(state!.sessions.load('s', 1_000)).rejects.toThrow(/no answer within 300 ms/);
      expect(Date.now() - started).toBeLessThan(scaled(2_000));
    } finally {
      process.kill(pid, 'SIGCONT');
    }
    await closeAll([state!]);
  });

  it('refuses to start, without hanging, when Redis cannot be reached', async () => {
    const server = await startRedisServer();
    await server.stop();
    const started = Date.now();
    const error = await createRedisState({
      url: `redis://user:secret@127.0.0.1:${server.port}`,
      connectTimeoutMs: 500,
      onError: () => {},
    }).then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(error).toBeInstanceOf(SharedStateError);
    expect((error as Error).message).toContain(`127.0.0.1:${server.port}`);
    expect((error as Error).message).not.toContain('secret');
    expect(Date.now() - started).toBeLessThan(scaled(2_000));
  });
});
