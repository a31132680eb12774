import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createPrologProvider,
  PrologUnavailableError,
  PrologWorkerError,
  type PrologProvider,
} from '../src/index.js';
import { fixture, logSink, makeContext } from './helpers.js';
import { scaled } from '@rondo/test-support/timeFactor';

const run = (provider: PrologProvider, name: string) => provider.callTool!(name, {}, makeContext());
const until = async (done: () => boolean, ms = scaled(10_000)): Promise<void> => {
  for (const end = Date.now() + ms; !done() && Date.now() < end;)
    await new Promise((r) => setTimeout(r, 20));
};

describe('restarting workers', { timeout: scaled(30_000) }, () => {
  const open: PrologProvider[] = [];
  afterAll(() => Promise.all(open.map((p) => p.close())));

  it('sends queued calls to the healthy worker while a slow replacement starts', async () => {
    const provider = await createPrologProvider({
      files: [fixture('pool.pl'), fixture('slowStart.pl')],
      object: 'pool',
      workers: 2,
      onLog: logSink().onLog,
    });
    open.push(provider);
    const before = provider.workerIds();
    await expect(run(provider, 'halt')).rejects.toThrow(PrologWorkerError);
    const started = Date.now();
    const answers = await Promise.all(Array.from({ length: 8 }, () => run(provider, 'quick')));
    // A replacement takes more than 1 s to start (slowStart.pl), more on a busy machine.
    expect(Date.now() - started).toBeLessThan(scaled(500));
    expect(answers).toEqual(Array(8).fill({ kind: 'text', text: 'quick' }));
    expect(provider.workerIds()).toHaveLength(1);
    await until(() => provider.workerIds().some((id) => !before.includes(id)));
    expect(provider.workerIds()).toHaveLength(2);
  });

  it('backs off, doubling up to the cap, when each worker dies before it answers', async () => {
    const log = logSink();
    const provider = await createPrologProvider({
      files: [fixture('pool.pl')],
      workers: 1,
      restartDelayMs: 50,
      maxRestartDelayMs: 200,
      onLog: log.onLog,
    });
    open.push(provider);
    for (let i = 0; i < 5; i++)
      await expect(run(provider, 'halt')).rejects.toThrow(/exited with code 0 during the call/);
    const deaths = log.lines.filter((l) => / is gone /.test(l));
    expect(deaths.map((l) => l.replace(/^#(\d+) .* is gone \(exited with code 0\); /, ''))).toEqual(
      [
        'starting a replacement', // the first worker had answered `describe`
        'starting a replacement in 50 ms (failure 1 in a row)',
        'starting a replacement in 100 ms (failure 2 in a row)',
        'starting a replacement in 200 ms (failure 3 in a row)',
        'starting a replacement in 200 ms (failure 4 in a row)',
      ],
    );
    expect(await run(provider, 'quick')).toEqual({ kind: 'text', text: 'quick' });
  });

  it('fails calls at once while no worker can start, and serves again once one does', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rondo-flaky-'));
    const marker = join(dir, 'started');
    process.env.RONDO_FLAKY_MARKER = marker;
    const log = logSink();
    const provider = await createPrologProvider({
      files: [fixture('pool.pl'), fixture('flaky.pl')],
      object: 'pool',
      workers: 1,
      restartDelayMs: 50,
      maxRestartDelayMs: 200,
      onLog: log.onLog,
    });
    open.push(provider);
    await expect(run(provider, 'halt')).rejects.toThrow(PrologWorkerError);
    const queued = run(provider, 'quick').catch((e: unknown) => e); // waits for the replacement
    expect(await queued).toBeInstanceOf(PrologUnavailableError);
    const failures = () => log.lines.filter((l) => /could not start a replacement/.test(l));
    await until(() => failures().length >= 4);
    expect(failures().map((l) => /retrying in (\d+) ms/.exec(l)?.[1])).toEqual(
      expect.arrayContaining(['50', '100', '200']),
    );
    expect(failures()[0]).toMatch(/flaky_second_start/);
    const started = Date.now();
    const refused = (await run(provider, 'quick').catch((e: unknown) => e)) as Error;
    expect(Date.now() - started).toBeLessThan(scaled(50));
    expect(refused).toBeInstanceOf(PrologUnavailableError);
    expect(refused.message).toMatch(
      /^no Prolog worker is running: the last start failed \(.*flaky_second_start/,
    );
    rmSync(marker); // the next start loads again
    await until(() => provider.workerIds().length === 1);
    expect(await run(provider, 'quick')).toEqual({ kind: 'text', text: 'quick' });
    await provider.close();
    rmSync(dir, { recursive: true, force: true });
  });
});
