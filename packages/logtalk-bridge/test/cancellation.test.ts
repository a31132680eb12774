import type { Cancellation } from '@rondo/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LazyAbortController } from '@rondo/core/internal';
import { createPrologProvider, PrologCancelledError, type PrologProvider } from '../src/index.js';
import { fixture, logSink, makeContext } from './helpers.js';

const GRACE_MS = 400;
let provider: PrologProvider;
const log = logSink();

beforeAll(async () => {
  provider = await createPrologProvider({
    files: [fixture('vocab.pl'), fixture('elicit.pl')],
    object: 'elicit',
    workers: 1,
    cancelGraceMs: GRACE_MS,
    onLog: log.onLog,
    shutdownGraceMs: 500,
  });
});
afterAll(() => provider.close());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const call = (
  name: string,
  cancellation?: Cancellation,
  extra: Parameters<typeof makeContext>[0] = {},
) =>
  provider.callTool!(
    name,
    {},
    makeContext({ ...extra, ...(cancellation ? { cancellation } : {}) }),
  );
/** Starts `name`, aborts it after `afterMs`, and returns how long the rejection took after the abort. */
async function cancelAfter(name: string, afterMs: number, extra = {}): Promise<number> {
  const controller = new LazyAbortController();
  const pending = call(name, controller, extra);
  await sleep(afterMs);
  const abortedAt = Date.now();
  controller.abort();
  await expect(pending).rejects.toThrow(PrologCancelledError);
  return Date.now() - abortedAt;
}
const faults = () => log.lines.filter((l) => /protocol channel|unknown call/.test(l));

describe('cancellation', () => {
  it('keeps the worker of a cancelled quick call, drops its late result, and serves the next call', async () => {
    const before = provider.workerIds();
    const took = await cancelAfter('sleepy', 50);
    expect(took).toBeLessThan(150); // at once, not when the worker is done
    await sleep(300); // the worker finishes 'sleepy' and its result arrives unobserved
    expect(await call('text')).toEqual({ kind: 'text', text: 'plain text' });
    expect(provider.workerIds()).toEqual(before);
    expect(log.lines.filter((l) => /is gone|replaced/.test(l))).toEqual([]);
  });

  it('answers a pending elicitation of a cancelled call with cancel, so the worker unwinds and stays', async () => {
    const before = provider.workerIds();
    let asked = false;
    const legacy = {
      era: 'legacy' as const,
      revision: '2025-11-25' as const,
      clientCapabilities: { elicitation: {} },
      elicit: () => ((asked = true), new Promise<never>(() => undefined)), // a client that never answers
    };
    const controller = new LazyAbortController();
    const pending = call('ask', controller, legacy);
    for (let i = 0; i < 100 && !asked; i++) await sleep(10);
    expect(asked).toBe(true);
    controller.abort();
    await expect(pending).rejects.toThrow(PrologCancelledError);
    expect(await call('text')).toEqual({ kind: 'text', text: 'plain text' });
    expect(provider.workerIds()).toEqual(before);
  });

  it('interrupts the goal of a cancelled call, so its worker is free at once and stays', async () => {
    const before = provider.workerIds();
    const took = await cancelAfter('loop', 100);
    expect(took).toBeLessThan(150);
    const started = Date.now();
    expect(await call('text')).toEqual({ kind: 'text', text: 'plain text' });
    expect(Date.now() - started).toBeLessThan(GRACE_MS);
    expect(provider.workerIds()).toEqual(before);
  });

  it('kills and replaces a worker whose goal resists the interrupt, after the grace period', async () => {
    const before = provider.workerIds();
    const took = await cancelAfter('stubborn', 100);
    expect(took).toBeLessThan(GRACE_MS / 2);
    for (let i = 0; i < 200 && provider.workerIds().join() === before.join(); i++) await sleep(25);
    expect(provider.workerIds()).not.toEqual(before);
    expect(log.lines.some((l) => /did not finish a cancelled call within 400 ms/.test(l))).toBe(
      true,
    );
    expect(await call('text')).toEqual({ kind: 'text', text: 'plain text' });
  });

  it('takes a call cancelled while it waits for a worker out of the queue, unsent', async () => {
    const busy = call('sleepy');
    await sleep(50); // past PIPELINE_BEHIND_MS: the next call waits in the pool, not on the worker
    const controller = new LazyAbortController();
    const queued = call('text', controller);
    controller.abort();
    await expect(queued).rejects.toThrow(/cancelled before a worker took it/);
    expect(await busy).toEqual({ kind: 'text', text: 'woke' });
    const given = new LazyAbortController();
    given.abort();
    await expect(call('text', given)).rejects.toThrow(PrologCancelledError);
  });

  it("hears a caller give up through the context's cancellation, reading no signal", async () => {
    const before = provider.workerIds();
    const cancellation = new LazyAbortController();
    const ctx = makeContext({ cancellation });
    const noSignal = {
      get: () => {
        throw new Error('the bridge read the signal');
      },
    };
    Object.defineProperty(ctx, 'signal', noSignal);
    Object.defineProperty(cancellation, 'signal', noSignal);
    const running = provider.callTool!('loop', {}, ctx); // would never end if not interrupted
    const queued = provider.callTool!('text', {}, ctx); // behind it on the one worker
    await sleep(50);
    cancellation.abort(new Error('stop'));
    await expect(running).rejects.toThrow(PrologCancelledError);
    await expect(queued).rejects.toThrow(PrologCancelledError);
    await expect(provider.callTool!('text', {}, ctx)).rejects.toThrow(PrologCancelledError);
    expect(await call('text')).toEqual({ kind: 'text', text: 'plain text' });
    expect(provider.workerIds()).toEqual(before); // interrupted, not killed
  });

  it('never reports a late message of a cancelled or killed call as a protocol fault', () => {
    expect(faults()).toEqual([]);
  });
});
