import { describe, expect, it } from 'vitest';
import {
  MemoryTaskStore,
  TaskCapacityError,
  TaskRegistry,
  newTaskId,
  type TaskEvent,
} from '@rondo/core';
import { formElicitation } from '@rondo/protocol';

const NEW = { owner: 'alice', ttlMs: 60_000, pollIntervalMs: 500 } as const;
const ASK = formElicitation('Name?', { type: 'object', properties: { name: { type: 'string' } } });

describe('task ids', () => {
  it('are 144 random bits, base64url, and never repeat', () => {
    const ids = new Set(Array.from({ length: 10_000 }, () => newTaskId()));
    expect(ids.size).toBe(10_000);
    for (const id of [...ids].slice(0, 100)) {
      expect(id).toMatch(/^[A-Za-z0-9_-]{24}$/);
      // 24 base64 characters carry 144 bits.
      expect(atob(id.replaceAll('-', '+').replaceAll('_', '/')).length).toBe(18);
    }
  });
});

describe('the in-memory task store', () => {
  it('finds a task as soon as create resolves, and forgets it after its TTL', async () => {
    let now = 1_000;
    const store = new MemoryTaskStore({ now: () => now });
    const task = await store.create({ ...NEW, ttlMs: 100 });
    expect(await store.get(task.taskId)).toMatchObject({
      status: 'working',
      owner: 'alice',
      createdAt: 1_000,
    });
    now += 99;
    expect(await store.get(task.taskId)).toBeDefined();
    now += 1;
    expect(await store.get(task.taskId)).toBeUndefined();
    expect(await store.update(task.taskId, { status: 'completed' })).toBeUndefined();
    expect(store.size).toBe(0);
  });

  it('never changes a terminal task', async () => {
    const store = new MemoryTaskStore();
    const task = await store.create(NEW);
    await store.update(task.taskId, { status: 'completed', result: { content: [] } });
    const after = await store.update(task.taskId, { status: 'failed', statusMessage: 'late' });
    expect(after).toMatchObject({ status: 'completed', result: { content: [] } });
    expect(after?.statusMessage).toBeUndefined();
    expect((await store.requestCancel(task.taskId))?.status).toBe('completed');
  });

  it('keeps a task input_required until every outstanding request is answered, ignoring other keys', async () => {
    const store = new MemoryTaskStore();
    const task = await store.create(NEW);
    await store.update(task.taskId, {
      status: 'input_required',
      inputRequests: { a: ASK, b: ASK },
    });
    const partial = await store.respond(task.taskId, {
      a: { action: 'accept', content: { name: 'A' } },
      never: { action: 'decline' },
    });
    expect(partial?.status).toBe('input_required');
    expect(Object.keys(partial?.inputRequests ?? {})).toEqual(['b']);
    // An answer to a key already answered is ignored.
    await store.respond(task.taskId, { a: { action: 'decline' } });
    const done = await store.respond(task.taskId, {
      b: { action: 'accept', content: { name: 'B' } },
    });
    expect(done?.status).toBe('working');
    expect(await store.takeAnswers(task.taskId)).toEqual({
      a: { action: 'accept', content: { name: 'A' } },
      b: { action: 'accept', content: { name: 'B' } },
    });
    expect(await store.takeAnswers(task.taskId)).toEqual({});
  });

  it('cancels a running task at once and tells its watchers', async () => {
    const store = new MemoryTaskStore();
    const events: TaskEvent['kind'][] = [];
    store.watch((event) => events.push(event.kind));
    const task = await store.create(NEW);
    await store.update(task.taskId, { statusMessage: 'half way' });
    expect((await store.requestCancel(task.taskId))?.status).toBe('cancelled');
    expect(events).toEqual(['changed', 'cancelled']);
  });

  it('stays bounded under 100,000 created tasks, dropping the oldest finished ones', async () => {
    const store = new MemoryTaskStore({ maxTasks: 1_000 });
    let first: string | undefined;
    let largest = 0;
    for (let index = 0; index < 100_000; index += 1) {
      const task = await store.create(NEW);
      first ??= task.taskId;
      await store.update(task.taskId, { status: 'completed', result: { content: [] } });
      largest = Math.max(largest, store.size);
    }
    expect(largest).toBe(1_000);
    expect(store.size).toBe(1_000);
    expect(await store.get(first!)).toBeUndefined();
  });

  it('refuses a task when every kept task is still running', async () => {
    const store = new MemoryTaskStore({ maxTasks: 10 });
    for (let index = 0; index < 10; index += 1) await store.create(NEW);
    await expect(store.create(NEW)).rejects.toBeInstanceOf(TaskCapacityError);
    expect(store.size).toBe(10);
  });

  it('makes room with an expired task before a finished one', async () => {
    let now = 0;
    const store = new MemoryTaskStore({ maxTasks: 2, now: () => now });
    const old = await store.create({ ...NEW, ttlMs: 10 });
    const running = await store.create({ ...NEW, ttlMs: 1_000 });
    now = 50;
    await store.create(NEW);
    expect(await store.get(old.taskId)).toBeUndefined();
    expect(await store.get(running.taskId)).toBeDefined();
  });
});

describe('the task registry', () => {
  it('finds a task only for the principal that created it', async () => {
    const registry = new TaskRegistry();
    const task = await registry.store.create(NEW);
    expect(await registry.find(task.taskId, { id: 'alice' })).toBeDefined();
    expect(await registry.find(task.taskId, { id: 'bob' })).toBeUndefined();
    expect(await registry.find(task.taskId, undefined)).toBeUndefined();
    expect(await registry.find('no-such-task', { id: 'alice' })).toBeUndefined();
    await registry.close();
  });
});
