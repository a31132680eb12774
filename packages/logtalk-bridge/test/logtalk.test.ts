import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InputRequiredValue } from '@rondo/protocol';
import {
  createPrologProvider,
  PrologLoadError,
  PrologProviderError,
  type PrologProvider,
} from '../src/index.js';
import { logtalkHomeForTests } from '@rondo/test-support/logtalkHome';
import { fixture, logSink, makeContext, nextRound } from './helpers.js';

logtalkHomeForTests();

describe('Logtalk flavour (objects through logtalk_load/1 and ::)', () => {
  let provider: PrologProvider;
  beforeAll(async () => {
    provider = await createPrologProvider({
      files: [fixture('tools.lgt')],
      workers: 2,
      onLog: logSink().onLog,
    });
  });
  afterAll(() => provider?.close());

  it('loads an object implementing the mcp_* protocols where the mcp_server library is absent', () => {
    expect(provider.flavour).toBe('logtalk');
    expect(provider.name).toBe('logtalk:lgt_tools');
    expect(provider.tools!()).toContainEqual({
      name: 'greet',
      title: 'Greeter',
      description: 'Greets.',
      inputSchema: { type: 'object', properties: { Name: { type: 'string' } }, required: ['Name'] },
      outputSchema: {
        type: 'object',
        properties: { Greeting: { type: 'string' } },
        required: ['Greeting'],
      },
    });
  });

  it('infers no outputSchema for a tool its tool_call/4 or round hook answers', async () => {
    const byName = new Map((await provider.tools!()).map((t) => [t.name, t]));
    expect(byName.get('add')?.outputSchema).toEqual({
      type: 'object',
      properties: { Sum: { type: 'integer' } },
      required: ['Sum'],
    });
    expect(byName.get('ask')).not.toHaveProperty('outputSchema');
    expect(byName.get('steps')).not.toHaveProperty('outputSchema');
  });

  it('reads task_support/2 of an object, and keeps it out of the tool descriptors', async () => {
    expect(provider.taskSupport!('steps')).toEqual({ support: 'optional' });
    expect(provider.taskSupport!('add')).toBeUndefined();
    expect((await provider.tools!()).find((t) => t.name === 'steps')).not.toHaveProperty(
      'taskSupport',
    );
  });

  it('auto-dispatches a public predicate by its argnames', async () => {
    expect(await provider.callTool!('add', { A: 1, B: 2 }, makeContext())).toMatchObject({
      kind: 'structured',
      structured: { Sum: 3 },
    });
  });

  it('elicits through tool_call/4 on the legacy wire', async () => {
    const ctx = makeContext({
      era: 'legacy',
      revision: '2025-11-25',
      clientCapabilities: { elicitation: {} },
      answers: [{ kind: 'accept', content: { name: 'Ann' } }],
    });
    expect(await provider.callTool!('ask', {}, ctx)).toEqual({ kind: 'text', text: 'Hi Ann' });
    expect(ctx.elicited.map((e) => e.message)).toEqual(['Your name?']);
  });

  it('runs tool_call_round/4 with progress and the same state term back', async () => {
    const first = makeContext();
    const r1 = (await provider.callTool!('steps', {}, first)) as InputRequiredValue;
    expect(first.events).toEqual(['progress 1/2 asking']);
    const r2 = await provider.callTool!(
      'steps',
      {},
      nextRound(r1.state, { q: { kind: 'accept', content: {} } }),
    );
    expect(r2).toEqual({
      kind: 'complete',
      result: { kind: 'structured', structured: { answer: 'ok' } },
    });
  });

  it('serves prompts and resources', async () => {
    expect(await provider.getPrompt!('hello', { who: 'x' }, makeContext())).toMatchObject({
      messages: [{ content: { text: 'Hello x' } }],
    });
    expect(await provider.readResource!('lgt://a', makeContext())).toMatchObject({
      contents: [{ text: 'alpha' }],
    });
  });

  it('stops start-up on a Logtalk compile error with the file and line', async () => {
    const failure = await createPrologProvider({
      files: [fixture('broken.lgt')],
      workers: 1,
      onLog: logSink().onLog,
    }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(PrologLoadError);
    expect((failure as PrologLoadError).file).toBe(fixture('broken.lgt'));
    expect((failure as PrologLoadError).line).toBe(4);
    // Logtalk's own report, "!"-prefixed over several lines, becomes one line with the column.
    expect((failure as PrologLoadError).message).toBe(
      `${fixture('broken.lgt')}:4:22: Syntax error: operator_expected`,
    );
  });
});

describe('the mcp_server library names and checks, on Logtalk objects', () => {
  it('reads the template-list cache policy under the library name resources_templates_list', async () => {
    const provider = await createPrologProvider({
      files: [fixture('catalog.lgt')],
      workers: 1,
      onLog: logSink().onLog,
    });
    try {
      expect(provider.cachePolicy!('resources/templates/list', undefined)).toEqual({
        ttlMs: 60000,
        cacheScope: 'public',
      });
      expect(provider.cachePolicy!('resources/list', undefined)).toBeUndefined();
    } finally {
      await provider.close();
    }
  });

  it('refuses to serve a malformed resource template', async () => {
    const failure = await createPrologProvider({
      files: [fixture('badTemplate.lgt')],
      workers: 1,
      onLog: logSink().onLog,
    }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(PrologProviderError);
    expect((failure as PrologProviderError).lines).toEqual([
      `${fixture('badTemplate.lgt')}:6: resource template "logtalk://x/{path" is not a URI template: "{" at 13 is never closed; expected an RFC 6570 template`,
    ]);
  });
});
