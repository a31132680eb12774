import type { Cancellation } from '@rondo/core';
import { LazyAbortController, runtimeOf } from '@rondo/core/internal';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';
import { createServer, type RondoServer } from '@rondo/core';
import type { InputResponseValue } from '@rondo/protocol';
import { createPrologProvider, PrologCancelledError, type PrologProvider } from '../src/index.js';
import { fixture, logSink, makeContext } from './helpers.js';

// Several calls in flight on one worker (maxCallsPerWorker): written ahead, answered in order,
// and a cancellation reaches only the call it is meant for.
const log = logSink();
let provider: PrologProvider;
let server: RondoServer;

beforeAll(async () => {
  provider = await createPrologProvider({
    files: [fixture('vocab.pl'), fixture('elicit.pl')],
    object: 'elicit',
    workers: 1,
    maxCallsPerWorker: 2,
    maxQueue: 1,
    cancelGraceMs: 400,
    onLog: log.onLog,
  });
  server = createServer({ name: 'pipelining', version: '1.0.0', log: () => undefined });
  server.provider(provider);
  await runtimeOf(server).ready();
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
const replaced = () => log.lines.filter((l) => /is gone|replaced|protocol channel/.test(l));

describe('calls in flight on one worker', { timeout: scaled(30_000) }, () => {
  it('holds maxCallsPerWorker calls on a worker and queues the next, then refuses past maxQueue', async () => {
    const held = [
      runtimeOf(server).callTool('sleepy', {}, makeContext()),
      runtimeOf(server).callTool('text', {}, makeContext()),
    ];
    const queued = runtimeOf(server).callTool('text', {}, makeContext());
    const refused = await runtimeOf(server).callTool('text', {}, makeContext());
    expect(refused).toMatchObject({
      result: { kind: 'error', text: expect.stringMatching(/busy.*limit maxQueue: 1/) },
    });
    const outcomes = await Promise.all([...held, queued]);
    expect(outcomes.map((o) => (o as { result: { text: string } }).result.text)).toEqual([
      'woke',
      'plain text',
      'plain text',
    ]);
  });

  it('skips a cancelled call written behind a running one, and leaves the running one alone', async () => {
    const before = provider.workerIds();
    const running = call('sleepy');
    const controller = new LazyAbortController();
    const behind = call('loop', controller); // would never end if it ran
    await sleep(20);
    controller.abort();
    await expect(behind).rejects.toThrow(PrologCancelledError);
    expect(await running).toEqual({ kind: 'text', text: 'woke' });
    expect(await call('text')).toEqual({ kind: 'text', text: 'plain text' });
    expect(provider.workerIds()).toEqual(before);
    expect(replaced()).toEqual([]);
  });

  it('interrupts a cancelled running call, and answers the call written behind it', async () => {
    const before = provider.workerIds();
    const controller = new LazyAbortController();
    const running = call('loop', controller);
    const behind = call('text');
    await sleep(50);
    controller.abort();
    await expect(running).rejects.toThrow(PrologCancelledError);
    expect(await behind).toEqual({ kind: 'text', text: 'plain text' });
    expect(provider.workerIds()).toEqual(before);
    expect(replaced()).toEqual([]);
  });

  it('answers the elicitation of a call while the call written behind it waits its turn', async () => {
    const answers: InputResponseValue[] = [
      { kind: 'accept', content: { name: 'Ada' } },
      { kind: 'accept', content: { ok: true } },
    ];
    const legacy = {
      era: 'legacy' as const,
      revision: '2025-11-25' as const,
      clientCapabilities: { elicitation: {} },
      elicit: async () => (await sleep(30), answers.shift()!),
    };
    const asking = call('ask', undefined, legacy);
    const behind = call('text');
    expect(await asking).toMatchObject({ kind: 'text', text: expect.stringContaining('Ada') });
    expect(await behind).toEqual({ kind: 'text', text: 'plain text' });
    expect(replaced()).toEqual([]);
  });
});

describe(
  'a worker lost with calls written behind the running one',
  { timeout: scaled(30_000) },
  () => {
    it('fails the running call alone, gives the calls behind it to the replacement', async () => {
      const pool = await createPrologProvider({
        files: [fixture('pool.pl')],
        workers: 1,
        onLog: logSink().onLog,
      });
      try {
        const before = pool.workerIds();
        const run = (name: string) => pool.callTool!(name, {}, makeContext());
        const outcomes = await Promise.allSettled([run('halt'), run('quick'), run('quick')]);
        expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'fulfilled', 'fulfilled']);
        const halted = outcomes[0] as PromiseRejectedResult;
        expect(String(halted.reason)).toMatch(/exited with code 0 during the call/);
        expect(pool.workerIds()).not.toEqual(before);
        expect(await run('quick')).toEqual({ kind: 'text', text: 'quick' });
      } finally {
        await pool.close();
      }
    });
  },
);
