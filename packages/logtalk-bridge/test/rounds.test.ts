import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InputRequiredValue } from '@rondo/protocol';
import { createPrologProvider, type PrologProvider } from '../src/index.js';
import { fixture, logSink, makeContext, nextRound } from './helpers.js';

let provider: PrologProvider;

beforeAll(async () => {
  provider = await createPrologProvider({
    files: [fixture('vocab.pl'), fixture('elicit.pl')],
    object: 'elicit',
    workers: 1,
    onLog: logSink().onLog,
  });
});
afterAll(() => provider.close());

const legacy = {
  era: 'legacy' as const,
  revision: '2025-11-25' as const,
  clientCapabilities: { elicitation: {} },
};

describe('tool_call/4 elicitation (legacy wire)', () => {
  it('calls ctx.elicit while Prolog waits, and gives each answer back as accept/decline/cancel', async () => {
    const ctx = makeContext({
      ...legacy,
      answers: [{ kind: 'accept', content: { name: 'Ann' } }, { kind: 'decline' }],
    });
    const result = await provider.callTool!('ask', {}, ctx);
    expect(ctx.elicited.map((e) => e.message)).toEqual(['Your name?', 'Really?']);
    expect(ctx.elicited[0]?.schema).toEqual({
      type: 'object',
      properties: { name: { type: 'string' } },
      required: ['name'],
    });
    expect(result).toEqual({ kind: 'text', text: "accept({name-'Ann'}) / decline" });
  });

  it('does not offer tool_call/4 when the client has no elicitation capability', async () => {
    const ctx = makeContext({ ...legacy, clientCapabilities: {} });
    expect(await provider.callTool!('ask', {}, ctx)).toEqual({
      kind: 'text',
      text: 'no elicitation here',
    });
    expect(ctx.elicited).toEqual([]);
  });
});

describe('round hooks', () => {
  it('carries RequestState back as the same term, with progress before each result', async () => {
    const first = makeContext();
    const r1 = (await provider.callTool!('steps', {}, first)) as InputRequiredValue;
    expect(first.events).toEqual(['progress 1/3 starting']);
    expect(r1).toMatchObject({
      kind: 'input_required',
      requests: [{ key: 'q1', request: { kind: 'form_elicitation', message: 'First?' } }],
    });
    const second = nextRound(r1.state, { q1: { kind: 'accept', content: {} } });
    const r2 = (await provider.callTool!('steps', {}, second)) as InputRequiredValue;
    expect(second.events).toEqual(['progress 2/3']);
    expect(r2).toMatchObject({
      kind: 'input_required',
      requests: [{ key: 'q2', request: { kind: 'url_elicitation', url: 'https://example.com' } }],
    });
    const r3 = await provider.callTool!(
      'steps',
      {},
      nextRound(r2.state, { q2: { kind: 'decline' } }, 3),
    );
    expect(r3).toEqual({
      kind: 'complete',
      result: { kind: 'text', text: 'finished with decline' },
    });
  });

  it('drives prompt_get_round/4 and omits a state of none', async () => {
    const r1 = await provider.getPrompt!('confirm', {}, makeContext());
    expect(r1).toEqual({
      kind: 'input_required',
      requests: [
        {
          kind: 'input_request',
          key: 'ok',
          request: {
            kind: 'form_elicitation',
            message: 'Confirm?',
            schema: { type: 'object', properties: {} },
          },
        },
      ],
    });
    const r2 = await provider.getPrompt!(
      'confirm',
      {},
      nextRound(undefined, { ok: { kind: 'accept', content: { ok: true } } }),
    );
    expect(r2).toMatchObject({ kind: 'complete', result: { kind: 'messages' } });
  });
});
