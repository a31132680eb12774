import { runtimeOf } from '@rondo/core/internal';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { complete, message, messages } from '@rondo/protocol';
import { createServer, type PromptArgument } from '@rondo/core';
import { testContext } from './testContext.js';

// Issue 29: a prompt handler's arguments follow the declared ones. These type assertions are
// checked by `pnpm typecheck` (tsconfig.test.json); the calls below check the runtime side.

const ctx = testContext();

describe('server.prompt argument types', () => {
  it('types required arguments as string and optional ones as string | undefined', async () => {
    const server = createServer({ name: 'p', version: '1', log: () => {} }).prompt(
      'greet',
      {
        arguments: [
          { name: 'who', required: true },
          { name: 'tone', description: 'how' },
          { name: 'lang', required: false },
        ],
      },
      (args) => {
        expectTypeOf(args.who).toEqualTypeOf<string>();
        expectTypeOf(args.tone).toEqualTypeOf<string | undefined>();
        expectTypeOf(args.lang).toEqualTypeOf<string | undefined>();
        // @ts-expect-error: an argument the prompt does not declare
        void args.undeclared;
        return messages([
          message('user', `Hello ${args.who.toUpperCase()} ${args.tone ?? 'plainly'}`),
        ]);
      },
    );
    await runtimeOf(server).ready();
    expect(await runtimeOf(server).getPrompt('greet', { who: 'ada' }, ctx)).toEqual(
      complete(messages([message('user', 'Hello ADA plainly')])),
    );
    await expect(runtimeOf(server).getPrompt('greet', { tone: 'warm' }, ctx)).rejects.toMatchObject(
      {
        code: -32602,
        message: 'Missing required argument "who" for prompt "greet"',
      },
    );
  });

  it('keeps the plain string map when no arguments are declared, or they are not a literal list', () => {
    const declared: PromptArgument[] = [{ name: 'x', required: true }];
    createServer({ name: 'p', version: '1', log: () => {} })
      .prompt('bare', { description: 'no arguments' }, (args) => {
        expectTypeOf(args).toEqualTypeOf<Record<string, string>>();
        return messages([]);
      })
      .prompt('built', { arguments: declared }, (args) => {
        expectTypeOf(args).toEqualTypeOf<Record<string, string>>();
        return messages([]);
      })
      // A handler written against the old string map still fits a prompt with literal arguments.
      .prompt(
        'old',
        { arguments: [{ name: 'who', required: true }, { name: 'tone' }] },
        (args: Record<string, string>) => messages([message('user', args.who ?? '')]),
      );
  });
});
