import { describe, expect, it, vi } from 'vitest';
import type { TaskEvent, TaskStore } from '@rondo/core';
import { formElicitation } from '@rondo/protocol';

/** A store under test and how to release it. */
export interface OpenedTaskStore {
  readonly store: TaskStore;
  close(): Promise<void>;
}

const NEW = { owner: 'alice', ttlMs: 60_000, pollIntervalMs: 500 } as const;
const ASK = formElicitation('Name?', { type: 'object', properties: { name: { type: 'string' } } });

/**
 * The rules every {@link TaskStore} keeps, run against one implementation: `open` gives a fresh,
 * empty store. Time passes for real (a TTL of a few hundred ms), so a store that expires tasks on
 * its own clock (Redis) runs the same scenarios as one in memory.
 */
export function describeTaskStoreContract(
  name: string,
  open: () => Promise<OpenedTaskStore>,
): void {
  describe(`the task store contract: ${name}`, () => {
    const withStore = (run: (store: TaskStore) => Promise<void>) => async () => {
      const opened = await open();
      try {
        await run(opened.store);
      } finally {
        await opened.close();
      }
    };

    it(
      'finds a task as soon as create resolves, and forgets it after its TTL',
      withStore(async (store) => {
        const task = await store.create({ ...NEW, ttlMs: 300 });
        expect(await store.get(task.taskId)).toMatchObject({
          taskId: task.taskId,
          status: 'working',
          owner: 'alice',
          ttlMs: 300,
          pollIntervalMs: 500,
          inputRequests: {},
        });
        await new Promise((resolve) => setTimeout(resolve, 450));
        expect(await store.get(task.taskId)).toBeUndefined();
        expect(await store.update(task.taskId, { status: 'completed' })).toBeUndefined();
        expect(await store.requestCancel(task.taskId)).toBeUndefined();
      }),
    );

    it(
      'keeps an owner-less task and its status message',
      withStore(async (store) => {
        const task = await store.create({ ...NEW, owner: undefined, statusMessage: 'queued' });
        const found = await store.get(task.taskId);
        expect(found?.owner).toBeUndefined();
        expect(found?.statusMessage).toBe('queued');
        expect(await store.get('no-such-task')).toBeUndefined();
      }),
    );

    it(
      'never changes a terminal task',
      withStore(async (store) => {
        const task = await store.create(NEW);
        await store.update(task.taskId, { status: 'completed', result: { content: [] } });
        const after = await store.update(task.taskId, { status: 'failed', statusMessage: 'late' });
        expect(after).toMatchObject({ status: 'completed', result: { content: [] } });
        expect(after?.statusMessage).toBeUndefined();
        expect((await store.requestCancel(task.taskId))?.status).toBe('completed');
        expect(await store.get(task.taskId)).toEqual(after);
      }),
    );

    it(
      'keeps a task input_required until every outstanding request is answered, ignoring other keys',
      withStore(async (store) => {
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
        expect(partial?.inputRequests.b).toEqual(ASK);
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
        expect(await store.takeAnswers('no-such-task')).toEqual({});
        expect(await store.respond('no-such-task', { a: { action: 'decline' } })).toBeUndefined();
      }),
    );

    it(
      'fails a task with its error and keeps it failed',
      withStore(async (store) => {
        const task = await store.create(NEW);
        const error = { code: -32603, message: 'Internal error' };
        const failed = await store.update(task.taskId, { status: 'failed', error });
        expect(failed).toMatchObject({ status: 'failed', error });
        expect((await store.update(task.taskId, { status: 'working' }))?.status).toBe('failed');
      }),
    );

    it(
      'cancels a running task at once, drops its requests, and tells its watchers',
      withStore(async (store) => {
        const events: TaskEvent[] = [];
        const stop = store.watch((event) => events.push(event));
        const task = await store.create(NEW);
        await store.update(task.taskId, { statusMessage: 'half way', inputRequests: { a: ASK } });
        const cancelled = await store.requestCancel(task.taskId);
        expect(cancelled).toMatchObject({ status: 'cancelled', inputRequests: {} });
        expect((await store.get(task.taskId))?.status).toBe('cancelled');
        await vi.waitFor(() =>
          expect(events.map((event) => event.kind)).toEqual(['changed', 'cancelled']),
        );
        expect(events[0]?.task.statusMessage).toBe('half way');
        expect(events[1]?.task.taskId).toBe(task.taskId);
        stop();
      }),
    );
  });
}
