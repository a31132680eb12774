import { runtimeOf } from '@rondo/core/internal';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';
import { createServer, type RondoServer } from '@rondo/core';
import { createPrologProvider, type PrologProvider } from '../src/index.js';
import { prologTerm } from '../src/prologTerm.js';
import { fixture, logSink, makeContext } from './helpers.js';

describe('prologTerm', () => {
  it('writes 100,000 nested lists and objects without the call stack', () => {
    type Nested = Nested[] | { a: Nested } | number;
    let value: Nested = -1;
    for (let i = 0; i < 100_000; i++) value = i % 2 === 0 ? [value] : { a: value };
    const text = prologTerm(value);
    expect(text.length).toBe(50_000 * "{'a'-[]}".length + 2);
    expect(text.slice(0, 12)).toBe("{'a'-[{'a'-[");
    expect(text).toContain('[-1]');
  });

  it('keeps the joints and separators of the recursive writer', () => {
    expect(prologTerm({ a: -5, b: null, c: [1, 'x', { d: true }], e: {} })).toBe(
      "{'a'- -5,'b'- @(null),'c'-[1,'x',{'d'- @(true)}],'e'-{}}",
    );
  });
});

/** Waits until one worker of `before` was replaced by a new one and the other still runs. */
async function oneReplaced(provider: PrologProvider, before: number[]): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const ids = provider.workerIds();
    const kept = ids.filter((id) => before.includes(id));
    if (ids.length === before.length && kept.length === before.length - 1) return;
    if (Date.now() > deadline) throw new Error(`workers ${ids.join(',')}: not one replaced`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('what a worker sends back', { timeout: scaled(30_000) }, () => {
  let provider: PrologProvider;
  let server: RondoServer;
  beforeAll(async () => {
    provider = await createPrologProvider({
      files: [fixture('limits.pl')],
      workers: 2,
      maxMessageDepth: 100,
      maxMessageBytes: 4096,
      shutdownGraceMs: 500,
      onLog: logSink().onLog,
    });
    server = createServer({ name: 'limits', version: '1.0.0', log: () => undefined });
    server.provider(provider);
    await runtimeOf(server).ready();
  });
  afterAll(() => provider.close());

  const call = (name: string, args: Record<string, unknown>) =>
    runtimeOf(server).callTool(name, args, makeContext());

  it('fails a result nesting past maxMessageDepth as a tool error and replaces only its worker', async () => {
    const before = provider.workerIds();
    const [deep, ordinary] = await Promise.all([
      call('deep', { levels: 200 }),
      call('echo', { a: 1 }),
    ]);
    expect(deep).toMatchObject({
      result: { kind: 'error', text: expect.stringMatching(/nesting deeper than 100 levels/) },
    });
    expect(ordinary).toMatchObject({ result: { kind: 'structured', structured: { count: 1 } } });
    await oneReplaced(provider, before);
    expect(await call('deep', { levels: 50 })).toMatchObject({ result: { kind: 'structured' } });
  });

  it('fails a result line past maxMessageBytes as a tool error, then serves the next call', async () => {
    const before = provider.workerIds();
    const [wide, ordinary] = await Promise.all([
      call('wide', { bytes: 10_000 }),
      call('echo', { a: 1, b: 2 }),
    ]);
    expect(wide).toMatchObject({
      result: { kind: 'error', text: expect.stringMatching(/a message of more than 4096 bytes/) },
    });
    expect(ordinary).toMatchObject({ result: { kind: 'structured', structured: { count: 2 } } });
    await oneReplaced(provider, before);
    expect(await call('wide', { bytes: 100 })).toMatchObject({ result: { kind: 'text' } });
  });
});
