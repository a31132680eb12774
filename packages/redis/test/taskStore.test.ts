import { describe, expect, it, vi } from 'vitest';
import { MemoryTaskStore, TaskLimitError, type TaskEvent } from '@rondo/tasks';
import { TaskRegistry } from '@rondo/tasks/internal';
import { describeTaskStoreContract } from '@rondo/test-support/taskStoreContract';
import { closeAll, openStates, redisCommand, useRedisServer } from './support/harness.js';

const NEW = { owner: 'alice', ttlMs: 60_000, pollIntervalMs: 500 } as const;

const redis = useRedisServer();

describeTaskStoreContract('in memory', async (limits) => {
  const store = new MemoryTaskStore(limits);
  return { store, close: () => store.close() };
});

describeTaskStoreContract('in Redis', async (limits) => {
  const [state] = await openStates(redis().url, 1, limits);
  return { store: state!.tasks, close: () => state!.close() };
});

describe('tasks in Redis across processes', () => {
  it('lets one process answer and cancel a task another created, and tells the run there', async () => {
    const [runner, other] = await openStates(redis().url, 2);
    const heard: TaskEvent[] = [];
    runner!.tasks.watch((event) => heard.push(event));
    const task = await runner!.tasks.create(NEW);
    expect(await other!.tasks.get(task.taskId)).toEqual(task);
    await runner!.tasks.update(task.taskId, { statusMessage: 'working on it' });
    expect((await other!.tasks.requestCancel(task.taskId))?.status).toBe('cancelled');
    await vi.waitFor(() =>
      expect(heard.map((event) => event.kind)).toEqual(['changed', 'cancelled']),
    );
    expect(heard[1]?.task).toMatchObject({ taskId: task.taskId, status: 'cancelled' });
    await closeAll([runner!, other!]);
  });

  // Issue 31, point 5: the share is the owner's across every process, not per process.
  it('counts an owner’s running tasks across processes against maxTasksPerOwner', async () => {
    const [one, two] = await openStates(redis().url, 2, { maxTasksPerOwner: 2 });
    const first = await one!.tasks.create(NEW);
    await two!.tasks.create(NEW);
    await expect(one!.tasks.create(NEW)).rejects.toBeInstanceOf(TaskLimitError);
    await expect(two!.tasks.create(NEW)).rejects.toMatchObject({ limit: 'maxTasksPerOwner' });
    expect((await two!.tasks.create({ ...NEW, owner: 'bob' })).owner).toBe('bob');
    await two!.tasks.update(first.taskId, { status: 'failed', error: { code: -1, message: 'x' } });
    expect((await one!.tasks.create(NEW)).status).toBe('working');
    await closeAll([one!, two!]);
  });

  it('finds a task only for its owner through the registry', async () => {
    const [state] = await openStates(redis().url, 1);
    const registry = new TaskRegistry({ store: state!.tasks });
    const task = await registry.store.create(NEW);
    expect(await registry.find(task.taskId, { id: 'alice' })).toBeDefined();
    expect(await registry.find(task.taskId, { id: 'bob' })).toBeUndefined();
    await registry.close();
    await state!.close();
  });

  it('applies each change in one round trip and keeps a task no longer than maxTaskTtlMs', async () => {
    const [state] = await openStates(redis().url, 1, { maxTaskTtlMs: 5_000 });
    const before = state!.stats().commands;
    const task = await state!.tasks.create({ ...NEW, ttlMs: null });
    await state!.tasks.update(task.taskId, { status: 'completed', result: { content: [] } });
    expect(state!.stats().commands - before).toBe(2);
    const ttl = Number(
      await redisCommand(redis().url, ['PTTL', `${state!.prefix}task:${task.taskId}`]),
    );
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(5_000);
    expect((await state!.tasks.get(task.taskId))?.ttlMs).toBeNull();
    await state!.close();
  });
});

// Issue 39, point 5: every key is printable, so `redis-cli --scan` and the tools built on it show
// each one whole (the anonymous share's key held a NUL byte, where they cut it).
describe('task keys in Redis', () => {
  it('are printable for an anonymous client’s share and for any principal’s id, and keep them apart', async () => {
    const [state] = await openStates(redis().url, 1, { maxTasksPerOwner: 1 });
    // The share core gives an anonymous HTTP client, and a principal named like it.
    const anonymous = { owner: undefined, share: 'client:address:2001:db8::/64' };
    await state!.tasks.create({ ...NEW, ...anonymous });
    expect(
      (await state!.tasks.create({ ...NEW, owner: 'client:address:2001:db8::/64' })).owner,
    ).toBe('client:address:2001:db8::/64');
    await expect(state!.tasks.create({ ...NEW, ...anonymous })).rejects.toMatchObject({
      limit: 'maxTasksPerOwner',
    });
    await state!.tasks.create({ ...NEW, owner: 'zoë\u0000\n\u001b[31m' });
    await state!.close();
    // Every key this file's tests made, these included.
    const keys = (await redisCommand(redis().url, ['KEYS', '*'])) as string[];
    expect(keys.length).toBeGreaterThan(3);
    for (const key of keys) expect(key, JSON.stringify(key)).toMatch(/^[\x21-\x7e]+$/);
  });
});
