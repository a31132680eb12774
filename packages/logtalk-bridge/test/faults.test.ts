import { runtimeOf } from '@rondo/core/internal';
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from '@rondo/core';
import {
  createPrologProvider,
  PrologConfigurationError,
  PrologLoadError,
  PrologProtocolError,
  PrologTimeoutError,
  PrologWorkerError,
  type PrologProvider,
} from '../src/index.js';
import { fixture, logSink, makeContext } from './helpers.js';
import { scaled } from '@rondo/test-support/timeFactor';

// The call deadline and "promptly" grow together with the machine's load, so a call held up behind
// the attacked worker (at least the deadline) still tells from one that was not (under `prompt`).
const deadlineMs = scaled(1500);
const prompt = scaled(1000);

let provider: PrologProvider;
const log = logSink();

beforeAll(async () => {
  provider = await createPrologProvider({
    files: [fixture('vocab.pl')],
    workers: 1,
    timeoutMs: deadlineMs,
    onLog: log.onLog,
    shutdownGraceMs: 500,
  });
});
afterAll(() => provider.close());

const call = (name: string) => provider.callTool!(name, {}, makeContext());
const childPids = (): number[] =>
  execFileSync('pgrep', ['-P', String(process.pid), 'swipl'])
    .toString()
    .trim()
    .split('\n')
    .filter(Boolean)
    .map(Number);
/** Waits until the pool runs a worker other than the ones in `before`. */
const waitForWorker = async (before: number[] = provider.workerIds()): Promise<void> => {
  const fresh = () => provider.workerIds().some((id) => !before.includes(id));
  for (let i = 0; i < scaled(200) && !fresh(); i++) await new Promise((r) => setTimeout(r, 25));
};

describe('faults', () => {
  it('fails only the in-flight call when its worker is killed with SIGKILL, then serves the next', async () => {
    const before = provider.workerIds();
    const pending = call('loop');
    await new Promise((r) => setTimeout(r, 200));
    for (const pid of childPids()) process.kill(pid, 'SIGKILL');
    await expect(pending).rejects.toThrow(PrologWorkerError);
    await expect(pending).rejects.toThrow(/killed by SIGKILL during the call/);
    await waitForWorker(before);
    expect(await call('text')).toEqual({ kind: 'text', text: 'plain text' });
  });

  it('kills an endless loop at the deadline with a PrologTimeoutError, then serves the next', async () => {
    const before = provider.workerIds();
    await expect(call('loop')).rejects.toThrow(PrologTimeoutError);
    await waitForWorker(before);
    expect(provider.workerIds()).not.toEqual(before);
    expect(await call('text')).toEqual({ kind: 'text', text: 'plain text' });
  });

  it('sends user_output to stderr (logged with the worker id), never into the protocol', async () => {
    expect(await call('noisy')).toEqual({ kind: 'text', text: 'done' });
    // stderr is a separate pipe: its lines may arrive after the result.
    const printed = () => log.lines.some((l) => /^#\d+ stderr: printed to user_output$/.test(l));
    for (let i = 0; i < 100 && !printed(); i++) await new Promise((r) => setTimeout(r, 20));
    expect(printed()).toBe(true);
  });

  it('fails the call with a PrologProtocolError on garbage on the protocol channel, then serves the next', async () => {
    const before = provider.workerIds();
    const failure = (await call('garbage').catch((e: unknown) => e)) as Error;
    expect(failure).toBeInstanceOf(PrologProtocolError);
    expect(failure.message).toMatch(/non-protocol output "this is not JSON"/);
    await waitForWorker(before);
    expect(await call('text')).toEqual({ kind: 'text', text: 'plain text' });
  });

  it('stops start-up on a file that fails to load, naming file, line and message', async () => {
    const failure = createPrologProvider({
      files: [fixture('broken.pl')],
      workers: 2,
      onLog: logSink().onLog,
    });
    await expect(failure).rejects.toThrow(PrologLoadError);
    const error = (await failure.catch((e: unknown) => e)) as PrologLoadError;
    expect(error.file).toBe(fixture('broken.pl'));
    expect(error.line).toBe(4);
    expect(error.column).toBe(16);
    expect(error.detail).toBe('Syntax error: Operator expected');
    expect(error.message).toBe(`${fixture('broken.pl')}:4:16: Syntax error: Operator expected`);
  });

  it('reports a missing file before starting any worker, as given and resolved', async () => {
    const failure = await createPrologProvider({
      files: [fixture('nope.pl')],
      workers: 1,
      onLog: logSink().onLog,
    }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(PrologConfigurationError);
    expect((failure as Error).message).toBe(
      `file not found: ${fixture('nope.pl')} (resolved to ${fixture('nope.pl')})`,
    );
  });
});

describe('an attacked worker among healthy ones', { timeout: scaled(30_000) }, () => {
  let pool: PrologProvider;
  beforeAll(async () => {
    pool = await createPrologProvider({
      files: [fixture('pool.pl')],
      workers: 2,
      timeoutMs: deadlineMs,
      onLog: logSink().onLog,
    });
  });
  afterAll(() => pool.close());
  const run = (name: string) => pool.callTool!(name, {}, makeContext());

  it.each([
    ['halt', PrologWorkerError, /exited with code 0 during the call; it was replaced/],
    ['loop', PrologTimeoutError, new RegExp(`ran past its deadline of ${deadlineMs} ms`)],
    ['garbage', PrologProtocolError, /non-protocol output "this is not JSON"/],
  ])(
    'fails only a %s call, while calls beside and behind it are answered promptly',
    async (tool, type, message) => {
      const before = pool.workerIds();
      const attack = run(tool).catch((e: unknown) => e);
      await new Promise((r) => setTimeout(r, 50)); // the attack has its worker
      const started = Date.now();
      const ordinary = ['sleepy', 'quick', 'quick', 'quick'].map(async (name) => {
        await run(name);
        return Date.now() - started;
      });
      for (const took of await Promise.all(ordinary)) expect(took).toBeLessThan(prompt);
      const failure = (await attack) as Error;
      expect(failure).toBeInstanceOf(type);
      expect(failure.message).toMatch(message);
      await waitForNewWorker(pool, before);
      expect(pool.workerIds()).toHaveLength(2);
      expect(await run('quick')).toEqual({ kind: 'text', text: 'quick' });
    },
  );

  it('answers the call that killed its worker as a tool error', async () => {
    const server = createServer({ name: 'faults', version: '1.0.0', log: () => undefined });
    server.provider(pool);
    await runtimeOf(server).ready();
    const before = pool.workerIds();
    expect(await runtimeOf(server).callTool('halt', {}, makeContext())).toMatchObject({
      result: {
        kind: 'error',
        text: expect.stringMatching(
          /^Tool "halt" failed: Prolog worker \d+ exited with code 0 during the call/,
        ),
      },
    });
    await waitForNewWorker(pool, before);
  });
});

async function waitForNewWorker(pool: PrologProvider, before: number[]): Promise<void> {
  const fresh = () =>
    pool.workerIds().length === before.length &&
    pool.workerIds().some((id) => !before.includes(id));
  for (let i = 0; i < scaled(200) && !fresh(); i++) await new Promise((r) => setTimeout(r, 25));
}
