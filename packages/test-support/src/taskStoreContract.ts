import { describe, expect, it, vi } from 'vitest';
import { TaskLimitError, type TaskEvent, type TaskShareLimits, type TaskStore } from '@rondo/tasks';
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
 * empty store (with the given shares, where a scenario needs them). Time passes for real (a TTL of a few hundred ms), so a store that expires tasks on
 * its own clock (Redis) runs the same scenarios as one in memory.
 */
export function describeTaskStoreContract(
  name: string,
  open: (limits?: TaskShareLimits) => Promise<OpenedTaskStore>,
): void {
  describe(`the task store contract: ${name}`, () => {
    const withStore =
      (run: (store: TaskStore) => Promise<void>, limits?: TaskShareLimits) => async () => {
        const opened = await open(limits);
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

    // Issue 31, point 5: one owner filling its share leaves room for the others.
    it(
      'refuses a new task past maxTasksPerOwner for that owner alone, and has room once one ends',
      withStore(
        async (store) => {
          const mine = [];
          for (let index = 0; index < 3; index += 1) mine.push(await store.create(NEW));
          const refusal = await store.create(NEW).catch((error: unknown) => error);
          expect(refusal).toBeInstanceOf(TaskLimitError);
          expect(refusal).toMatchObject({ limit: 'maxTasksPerOwner', value: 3 });
          expect(String((refusal as Error).message)).toMatch(/limit maxTasksPerOwner: 3/);
          // Another principal, and anonymous clients, still have their shares.
          expect((await store.create({ ...NEW, owner: 'bob' })).owner).toBe('bob');
          expect((await store.create({ ...NEW, owner: undefined })).owner).toBeUndefined();
          // A finished task and a cancelled one each give their place back.
          await store.update(mine[0]!.taskId, { status: 'completed', result: { content: [] } });
          await store.requestCancel(mine[1]!.taskId);
          await store.create(NEW);
          await store.create(NEW);
          await expect(store.create(NEW)).rejects.toBeInstanceOf(TaskLimitError);
        },
        { maxTasksPerOwner: 3 },
      ),
    );

    // Issue 31, point 5: anonymous clients the transport tells apart each draw on their own share,
    // while their tasks stay anonymous (readable by any anonymous caller, as before).
    it(
      'counts anonymous tasks against their share key, one share per client',
      withStore(
        async (store) => {
          const first = { ...NEW, owner: undefined, share: 'client:a' };
          for (let index = 0; index < 2; index += 1) await store.create(first);
          await expect(store.create(first)).rejects.toBeInstanceOf(TaskLimitError);
          const other = await store.create({ ...NEW, owner: undefined, share: 'client:b' });
          expect(other.owner).toBeUndefined();
          expect(await store.get(other.taskId)).toMatchObject({ owner: undefined });
          await store.create({ ...NEW, owner: undefined, share: 'client:b' });
          await expect(
            store.create({ ...NEW, owner: undefined, share: 'client:b' }),
          ).rejects.toBeInstanceOf(TaskLimitError);
        },
        { maxTasksPerOwner: 2 },
      ),
    );

    it(
      'counts an expired task out of its owner’s share',
      withStore(
        async (store) => {
          await store.create({ ...NEW, ttlMs: 200 });
          await expect(store.create(NEW)).rejects.toBeInstanceOf(TaskLimitError);
          await new Promise((resolve) => setTimeout(resolve, 350));
          expect((await store.create(NEW)).status).toBe('working');
        },
        { maxTasksPerOwner: 1 },
      ),
    );

    // Issue 31, point 4: a value past maxTaskResultBytes is refused, precisely, and kept out.
    it(
      'refuses a result larger than maxTaskResultBytes and leaves the task as it was',
      withStore(
        async (store) => {
          const task = await store.create(NEW);
          const big = { content: [{ type: 'text', text: 'x'.repeat(2_000) }] };
          const refusal = await store
            .update(task.taskId, { status: 'completed', result: big })
            .catch((error: unknown) => error);
          expect(refusal).toBeInstanceOf(TaskLimitError);
          expect(refusal).toMatchObject({ limit: 'maxTaskResultBytes', value: 1_000 });
          expect(await store.get(task.taskId)).toMatchObject({ status: 'working' });
          expect(
            await store.update(task.taskId, { status: 'completed', result: { content: [] } }),
          ).toMatchObject({ status: 'completed', result: { content: [] } });
        },
        { maxTaskResultBytes: 1_000 },
      ),
    );
  });
}
