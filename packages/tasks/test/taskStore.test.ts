import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '@rondo/core';
import { MemoryTaskStore, TaskCapacityError, TaskLimitError, type TaskEvent } from '@rondo/tasks';
import { TaskRegistry, newTaskId } from '@rondo/tasks/internal';
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
    // Five owners, each with its share of two (a quarter of 10), fill the store.
    for (let index = 0; index < 10; index += 1)
      await store.create({ ...NEW, owner: `owner-${index % 5}` });
    await expect(store.create({ ...NEW, owner: 'newcomer' })).rejects.toBeInstanceOf(
      TaskCapacityError,
    );
    expect(store.size).toBe(10);
  });

  it('makes room with an expired task before a finished one', async () => {
    let now = 0;
    const store = new MemoryTaskStore({ maxTasks: 2, now: () => now });
    const old = await store.create({ ...NEW, ttlMs: 10 });
    const running = await store.create({ ...NEW, owner: 'bob', ttlMs: 1_000 });
    now = 50;
    await store.create({ ...NEW, owner: 'carol' });
    expect(await store.get(old.taskId)).toBeUndefined();
    expect(await store.get(running.taskId)).toBeDefined();
  });
});

// Issue 31, point 4: byte budgets beside the counts.
describe('the in-memory task store’s byte budgets', () => {
  const result = (size: number) => ({ content: [{ type: 'text', text: 'x'.repeat(size) }] });

  it('drops an owner’s oldest finished results past maxTaskBytesPerOwner, not others’', async () => {
    const store = new MemoryTaskStore({ maxTaskBytesPerOwner: 10_000, maxTaskBytes: 1_000_000 });
    const bobs = await store.create({ ...NEW, owner: 'bob' });
    await store.update(bobs.taskId, { status: 'completed', result: result(5_000) });
    const alices = [];
    for (let index = 0; index < 10; index += 1) {
      const task = await store.create(NEW);
      await store.update(task.taskId, { status: 'completed', result: result(3_000) });
      alices.push(task.taskId);
    }
    // Three results of about 3 kB fit in 10 kB: the newest three stay, the oldest went first.
    const kept = [];
    for (const taskId of alices) if (await store.get(taskId)) kept.push(taskId);
    expect(kept).toEqual(alices.slice(-3));
    expect(await store.get(bobs.taskId)).toMatchObject({ status: 'completed' });
    expect(store.bytes).toBeLessThanOrEqual(10_000 + 6_000);
  });

  it('drops anyone’s oldest finished result past maxTaskBytes', async () => {
    const store = new MemoryTaskStore({ maxTaskBytesPerOwner: 100_000, maxTaskBytes: 10_000 });
    const owners = ['a', 'b', 'c', 'd', 'e'];
    const ids = [];
    for (const owner of owners) {
      const task = await store.create({ ...NEW, owner });
      await store.update(task.taskId, { status: 'completed', result: result(3_000) });
      ids.push(task.taskId);
    }
    expect(store.bytes).toBeLessThanOrEqual(10_000);
    expect(await store.get(ids[0]!)).toBeUndefined();
    expect(await store.get(ids[4]!)).toBeDefined();
  });

  it('refuses a change when only running tasks hold the owner’s bytes', async () => {
    const store = new MemoryTaskStore({ maxTaskBytesPerOwner: 5_000 });
    const waiting = await store.create(NEW);
    await store.update(waiting.taskId, {
      status: 'input_required',
      inputRequests: { a: formElicitation('x'.repeat(3_000), { type: 'object' }) },
    });
    const next = await store.create(NEW);
    await expect(
      store.update(next.taskId, { status: 'completed', result: result(3_000) }),
    ).rejects.toMatchObject({ limit: 'maxTaskBytesPerOwner', value: 5_000 });
    expect((await store.get(waiting.taskId))?.status).toBe('input_required');
    expect((await store.get(next.taskId))?.status).toBe('working');
    // Once the waiting task is cancelled its bytes may go, and the result is kept.
    await store.requestCancel(waiting.taskId);
    expect(
      (await store.update(next.taskId, { status: 'completed', result: result(3_000) }))?.status,
    ).toBe('completed');
    expect(await store.get(waiting.taskId)).toBeUndefined();
  });

  it('gives a too large value a TaskLimitError naming maxTaskResultBytes', async () => {
    const store = new MemoryTaskStore({ maxTaskResultBytes: 100 });
    const task = await store.create(NEW);
    const refusal = await store
      .update(task.taskId, { status: 'completed', result: result(200) })
      .catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(TaskLimitError);
    expect((refusal as Error).message).toMatch(/limit maxTaskResultBytes: 100/);
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

// Issue 39, point 5: a share is a share of the store, whatever its size.
describe('the in-memory task store’s owner shares scale with the store', () => {
  it('in a store of 300, refuses one owner before it holds half, then accepts another', async () => {
    const store = new MemoryTaskStore({ maxTasks: 300 });
    let held = 0;
    let refusal: unknown;
    for (; held < 300; held += 1) {
      refusal = await store.create(NEW).then(
        () => undefined,
        (error: unknown) => error,
      );
      if (refusal !== undefined) break;
    }
    expect(held).toBe(75);
    expect(held).toBeLessThan(150);
    expect(refusal).toBeInstanceOf(TaskLimitError);
    expect(refusal).toMatchObject({ limit: 'maxTasksPerOwner', value: 75 });
    expect(await store.create({ ...NEW, owner: 'bob' })).toMatchObject({ owner: 'bob' });
  });

  it('keeps the share at 1,000 in a large store and refuses a share that could fill one', async () => {
    const large = new MemoryTaskStore({ maxTasks: 100_000 });
    for (let index = 0; index < 1_000; index += 1) await large.create(NEW);
    await expect(large.create(NEW)).rejects.toMatchObject({
      limit: 'maxTasksPerOwner',
      value: 1_000,
    });
    for (const options of [
      { maxTasks: 300, maxTasksPerOwner: 300 },
      { maxTasks: 300, maxTasksPerOwner: 1_000 },
      { maxTasks: 300, maxTasksPerOwner: 0 },
      { maxTasks: 1 },
    ])
      expect(() => new MemoryTaskStore(options), JSON.stringify(options)).toThrow(
        ConfigurationError,
      );
    expect(() => new MemoryTaskStore({ maxTasks: 300, maxTasksPerOwner: 299 })).not.toThrow();
  });
});
