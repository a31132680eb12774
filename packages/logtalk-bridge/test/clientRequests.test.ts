import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProviderChange } from '@rondo/core';
import { createPrologProvider, type PrologProvider } from '../src/index.js';
import { fixture, logSink, makeContext } from './helpers.js';

let provider: PrologProvider;

beforeAll(async () => {
  provider = await createPrologProvider({
    files: [fixture('client.pl')],
    workers: 1,
    timeoutMs: 5000,
    onLog: logSink().onLog,
  });
});
afterAll(() => provider.close());

describe('asking the client and telling it from Prolog', () => {
  it('forwards mcp_log/2,3 and print_message/2 during a call to ctx.log', async () => {
    const logged: unknown[] = [];
    const ctx = makeContext({ log: (level, data, logger) => logged.push([level, data, logger]) });
    expect(await provider.callTool!('logs', {}, ctx)).toEqual({ kind: 'text', text: 'logged' });
    expect(await provider.callTool!('warns', {}, ctx)).toEqual({ kind: 'text', text: 'warned' });
    expect(logged).toEqual([
      ['info', 'first', undefined],
      ['warning', { step: 2 }, 'steps'],
      ['warning', 'careful: x', 'prolog'],
    ]);
  });

  it('asks the client model with mcp_sample/2 and its roots with mcp_roots/1', async () => {
    const requests: unknown[] = [];
    const ctx = makeContext({
      sample: async (request) => {
        requests.push(request);
        return {
          kind: 'sampling_result',
          role: 'assistant',
          content: { type: 'text', text: 'Yo' },
          model: 'm',
        };
      },
      listRoots: async () => [{ uri: 'file:///a' }, { uri: 'file:///b', name: 'B' }],
    });
    const sampled = await provider.callTool!('sample', {}, ctx);
    expect(sampled).toMatchObject({ kind: 'text' });
    expect((sampled as { text: string }).text).toMatch(/model-m/);
    expect(requests).toEqual([
      { messages: [{ role: 'user', content: { kind: 'text', text: 'Hi?' } }], maxTokens: 10 },
    ]);
    expect(await provider.callTool!('roots', {}, ctx)).toEqual({ kind: 'text', text: '2 root(s)' });
  });

  it('turns a client that cannot answer into a tool error naming the request', async () => {
    const outcome = await provider.callTool!('sample', {}, makeContext());
    expect(outcome).toMatchObject({ kind: 'error' });
    expect((outcome as { text: string }).text).toMatch(/sampling.*no sampling in tests/);
  });

  it('re-reads the lists on mcp_notify/1 and tells the server', async () => {
    const changes: ProviderChange[] = [];
    const stop = provider.onChange!((change) => changes.push(change));
    const toolNames = async () => (await provider.tools!()).map((t) => t.name);
    expect(provider.capabilities!()).toEqual({ listChanged: true, subscribe: false });
    expect(await toolNames()).not.toContain('extra');
    await provider.callTool!('toggle', {}, makeContext());
    expect(await toolNames()).toContain('extra');
    expect(changes).toEqual([{ kind: 'tools' }, { kind: 'resource', uri: 'mem://x' }]);
    await provider.callTool!('toggle', {}, makeContext());
    expect(await toolNames()).not.toContain('extra');
    stop();
  });
});
