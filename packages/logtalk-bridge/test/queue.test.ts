import { runtimeOf } from '@rondo/core/internal';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type RondoServer } from '@rondo/core';
import { toWireError } from '@rondo/core/internal';
import { PrologBusyError, createPrologProvider, type PrologProvider } from '../src/index.js';
import { fixture, logSink, makeContext } from './helpers.js';
import { scaled } from '@rondo/test-support/timeFactor';

describe('the pool queue', { timeout: scaled(30_000) }, () => {
  let provider: PrologProvider;
  let server: RondoServer;
  beforeAll(async () => {
    provider = await createPrologProvider({
      files: [fixture('vocab.pl')],
      workers: 1,
      maxQueue: 1,
      maxCallsPerWorker: 1, // one at a time: the second call waits in the pool's queue
      onLog: logSink().onLog,
    });
    server = createServer({ name: 'queue', version: '1.0.0', log: () => undefined });
    server.provider(provider);
    await runtimeOf(server).ready();
  });
  afterAll(() => provider.close());

  const sleepy = () => runtimeOf(server).callTool('sleepy', {}, makeContext());

  it('refuses a call at once when maxQueue calls already wait, then serves the others', async () => {
    const running = sleepy(); // takes the one worker
    const queued = sleepy(); // the one waiting call maxQueue allows
    const started = Date.now();
    const refused = await sleepy();
    expect(Date.now() - started).toBeLessThan(scaled(100));
    expect(refused).toMatchObject({
      result: {
        kind: 'error',
        text: 'Tool "sleepy" failed: the Prolog provider is busy: the queue of calls waiting for a worker is full (limit maxQueue: 1); try again later',
      },
    });
    for (const outcome of await Promise.all([running, queued]))
      expect(outcome).toMatchObject({ result: { kind: 'text', text: 'woke' } });
    expect(await sleepy()).toMatchObject({ result: { kind: 'text', text: 'woke' } });
  });

  it('is a typed error, an internal error on the wire outside tools', () => {
    const busy = new PrologBusyError(1000);
    expect(busy.maxQueue).toBe(1000);
    expect(toWireError(busy)).toMatchObject({
      code: -32603,
      message: /busy.*limit maxQueue: 1000/,
    });
  });
});
