import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';
import { planLaunch } from '../src/launch.js';
import { PrologCallError } from '../src/errors.js';
import { answerBatch, PrologWorker } from '../src/worker.js';
import type { WorkerLaunch } from '../src/workerContract.js';
import { fixture, logSink } from './helpers.js';

// One worker driven directly (no pool): a call it cannot serve is answered as a failure, and
// the same process serves the next call.
const log = logSink();
let worker: PrologWorker;

beforeAll(async () => {
  const plan = planLaunch([fixture('vocab.pl')], 'swipl', undefined);
  const launch: WorkerLaunch = {
    command: plan.command,
    args: plan.args,
    environment: (id) => plan.environment(String(id)),
    init: (id) => ({
      flavour: plan.flavour,
      files: plan.files,
      object: null,
      scratch: plan.scratch(String(id)),
    }),
    maxLineBytes: 1 << 20,
    maxMessageDepth: 100,
    startTimeoutMs: 30_000,
    maxInFlight: 4,
    cancelGraceMs: 500,
    broadcasts: { goals: [] },
    log: log.onLog,
  };
  worker = await PrologWorker.start(1, launch);
});
afterAll(() => worker.close(1000));

describe('a bridge worker', { timeout: scaled(30_000) }, () => {
  it('answers an unknown method as an error and serves the next call', async () => {
    const unknown = worker.call('no_such_method', {}, {}, 5000);
    await expect(unknown).rejects.toBeInstanceOf(PrologCallError);
    await expect(unknown).rejects.toMatchObject({
      kind: 'unknown_method',
      message: 'unknown bridge method no_such_method',
    });
    const next = await worker.call('describe', {}, {}, 5000);
    expect(next).toMatchObject({ name: 'vocab', flavour: 'plain' });
    expect(worker.alive).toBe(true);
  });

  it('answers a call whose parameters its method cannot use as a failure, and stays up', async () => {
    // A tool call without a name: the method's goal fails, which is answered, not left hanging.
    await expect(worker.call('tool', { arguments: {} }, {}, 5000)).rejects.toMatchObject({
      kind: 'failed',
      message: 'the tool call failed',
    });
    // Pipelined behind one another, both answered in order by the same process.
    const [bad, good] = await Promise.allSettled([
      worker.call('nope', {}, {}, 5000),
      worker.call('describe', {}, {}, 5000),
    ]);
    expect(bad).toMatchObject({ status: 'rejected', reason: { kind: 'unknown_method' } });
    expect(good).toMatchObject({ status: 'fulfilled' });
    expect(log.lines.filter((line) => /replaced|is gone/.test(line))).toEqual([]);
  });

  it('lets the worker hold back half the calls it may be given ahead, at least one', () => {
    expect([1, 2, 3, 8, 9].map(answerBatch)).toEqual([1, 1, 1, 4, 4]);
  });
});
