import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { JsonObject } from '@rondo/protocol';
import { createPrologProvider } from '../src/index.js';
import { logtalkHomeForTests } from '@rondo/test-support/logtalkHome';
import { logSink, makeContext, nextRound } from './helpers.js';

const root = fileURLToPath(new URL('..', import.meta.url));
logtalkHomeForTests();
const scratch = `${root}test/.readme/`;
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

// The user's answers, by question.
const answers: Record<string, string> = {
  'What is its size?': 'large',
  'bill: hooked?': 'no',
  'bill: flat?': 'yes',
  'feet: webbed?': 'yes',
  'neck: long?': 'yes',
  'voice: honk?': 'no',
  'color: white?': 'yes',
};
const swan = {
  kind: 'structured',
  structured: { message: 'Identified bird: mute_swan' },
  items: [{ kind: 'text', text: 'Identified bird: mute_swan' }],
};

describe('README', () => {
  it('runs the README example as written', () => {
    const readme = readFileSync(`${root}README.md`, 'utf8');
    const prolog = /```prolog\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
    const script = /```ts\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
    mkdirSync(scratch, { recursive: true });
    writeFileSync(`${scratch}greeter.pl`, prolog);
    writeFileSync(`${scratch}readme.mjs`, script);
    const out = execFileSync('node', ['readme.mjs'], { cwd: scratch }).toString();
    expect(out).toContain("name: 'greet'");
    expect(out).toContain(
      '{"kind":"structured","structured":{"Greeting":"Hello, Ada"},"items":[{"kind":"text","text":"Greeting: Hello, Ada"}]}',
    );
  });
});

describe.each(['birds.pl', 'birds.lgt'])('example %s', (file) => {
  it('identifies a bird with tool_call/4 elicitation on the legacy wire', async () => {
    const provider = await createPrologProvider({
      files: [`${root}examples/${file}`],
      workers: 1,
      onLog: logSink().onLog,
    });
    try {
      const ctx = makeContext({
        era: 'legacy',
        revision: '2025-11-25',
        clientCapabilities: { elicitation: {} },
      });
      ctx.elicit = async (message: string) => ({
        kind: 'accept',
        content: { answer: answers[message] ?? 'no' },
      });
      expect(await provider.callTool!('identify_bird', {}, ctx)).toEqual(swan);
    } finally {
      await provider.close();
    }
  });

  it('identifies a bird with round hooks on the modern wire', async () => {
    const provider = await createPrologProvider({
      files: [`${root}examples/${file}`],
      workers: 1,
      onLog: logSink().onLog,
    });
    try {
      let ctx = makeContext();
      let outcome = await provider.callTool!('identify_bird', {}, ctx);
      for (let round = 2; outcome.kind === 'input_required' && round < 20; round++) {
        const request = outcome.requests[0]!.request as { message: string; schema: JsonObject };
        ctx = nextRound(
          outcome.state,
          { q: { kind: 'accept', content: { answer: answers[request.message] ?? 'no' } } },
          round,
        );
        outcome = await provider.callTool!('identify_bird', {}, ctx);
      }
      expect(outcome).toEqual({ kind: 'complete', result: swan });
      expect(ctx.events).toEqual(['progress 7/- questions answered']);
    } finally {
      await provider.close();
    }
  });
});
