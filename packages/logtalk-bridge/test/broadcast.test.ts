import { execFileSync } from 'node:child_process';
import type { ProviderChange } from '@rondo/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPrologProvider, type PrologProvider } from '../src/index.js';
import { fixture, logSink, makeContext } from './helpers.js';

const WORKERS = 3;
let provider: PrologProvider;

beforeAll(async () => {
  provider = await createPrologProvider({
    files: [fixture('dynamic.pl')],
    workers: WORKERS,
    onLog: logSink().onLog,
    shutdownGraceMs: 500,
  });
});
afterAll(() => provider.close());

const call = (name: string, args = {}) => provider.callTool!(name, args, makeContext());
/** As many calls at once as there are workers: each idle worker takes one. */
const onEveryWorker = (name: string) =>
  Promise.all(Array.from({ length: WORKERS * 2 }, () => call(name)));

describe('mcp_broadcast/1', () => {
  it('adds a tool in every worker: the list changes and any worker answers it', async () => {
    const changes: ProviderChange[] = [];
    provider.onChange?.((change) => changes.push(change));
    expect(await call('add_tool', { Name: 'ping' })).toEqual({ kind: 'text', text: 'added' });
    expect(changes).toEqual([{ kind: 'tools' }]);
    expect((await provider.tools!()).map((t) => t.name)).toEqual(['add_tool', 'ping']);
    const answers = await onEveryWorker('ping');
    expect(answers).toEqual(answers.map(() => ({ kind: 'text', text: 'ping' })));
  });

  it('replays the broadcast goals in a worker started later', async () => {
    const before = provider.workerIds();
    const pids = execFileSync('pgrep', ['-P', String(process.pid), 'swipl'])
      .toString()
      .trim()
      .split('\n')
      .map(Number);
    process.kill(pids[0]!, 'SIGKILL');
    const replaced = () => provider.workerIds().some((id) => !before.includes(id));
    for (let i = 0; i < 200 && !replaced(); i++) await new Promise((r) => setTimeout(r, 25));
    expect(replaced()).toBe(true);
    const answers = await onEveryWorker('ping');
    expect(answers).toEqual(answers.map(() => ({ kind: 'text', text: 'ping' })));
  });
});
